"""Random small programs over tests/soundness/flow_layer for the label-propagation differential test.

They mix the layer's read calls with string building, f-strings, containers, indexing, methods,
comprehensions, builtins, branches, loops (literal and over a trusted list), early exits and the two
sink effects, in the checked subset (every name is bound at the top, so every path binds it).
"""

from __future__ import annotations

import random

HEADER = '''import clauz3
from tools.flow.trusted import contracts as flow
from tools.flow.trusted.effects import log, read_num, read_web, read_words, send


def tidy(t: str, n: int) -> str:
    if "w" in t:
        return t.upper()
    if n > 2:
        return "many"
    return "none"


@clauz3.guarantee(flow.web_not_in_send())
@clauz3.guarantee(flow.nothing_read_in_log())
@clauz3.guarantee(flow.bodies_only_from_num())
def main() -> None:
    s0 = "alpha"
    s1 = "b c"
    s2 = ""
    n0 = 1
    n1 = 2
    xs = ["p", "q"]
    d = {"k": "v"}
    ws = read_words("w")
'''

STRS = ("s0", "s1", "s2")
INTS = ("n0", "n1")


class Gen:
    def __init__(self, rng: random.Random, focused: bool = False) -> None:
        self.rng = rng
        self.focused = focused  # one read at the start, no other reads or sinks until the last lines
        self.loops = 0
        self.lines: list[str] = []

    def pick(self, *options: str) -> str:
        return self.rng.choice(options)

    # -------------------------------------------------------------- expressions

    def s(self, depth: int = 0) -> str:
        r = self.rng.random()
        if depth > 2 or r < 0.3:
            return self.pick(*STRS, '"x"', '"www"', "d.get(\"k\", \"none\")")
        kind = self.rng.randrange(12)
        if kind == 11:
            return f"tidy({self.s(depth + 1)}, {self.n(depth + 1)})"
        if kind == 0:
            return f"({self.s(depth + 1)} + {self.s(depth + 1)})"
        if kind == 1:
            return f'f"{{{self.pick(*STRS)}}}-{{{self.pick(*INTS)}}}"'
        if kind == 2:
            return f"{self.s(depth + 1)}.{self.pick('upper', 'strip', 'lower')}()"
        if kind == 3:
            return f"{self.s(depth + 1)}[:2]"
        if kind == 4:
            return f"str({self.n(depth + 1)})"
        if kind == 5:
            return f"({self.s(depth + 1)} if {self.c(depth + 1)} else {self.s(depth + 1)})"
        if kind == 6:
            return f'",".join({self.lst(depth + 1)})'
        if kind == 7:
            return '(xs[0] if len(xs) > 0 else "z")'
        if kind == 8:
            return '(min(xs) if len(xs) > 0 else "m")'
        if kind == 9:
            return f'{self.s(depth + 1)}.replace("a", "b")'
        return f'd.get({self.s(depth + 1)}, "none")'

    def n(self, depth: int = 0) -> str:
        if depth > 2 or self.rng.random() < 0.35:
            return self.pick(*INTS, "0", "3")
        kind = self.rng.randrange(6)
        if kind == 0:
            return f"len({self.s(depth + 1)})"
        if kind == 1:
            return f"({self.n(depth + 1)} + {self.n(depth + 1)})"
        if kind == 2:
            return f"({self.n(depth + 1)} if {self.c(depth + 1)} else {self.n(depth + 1)})"
        if kind == 3:
            return f'{self.s(depth + 1)}.find("a")'
        if kind == 4:
            return "len(xs)"
        return f"len({self.lst(depth + 1)})"

    def c(self, depth: int = 0) -> str:
        kind = self.rng.randrange(7)
        if kind == 6:
            return f"len({self.pick(*STRS)}) > {self.pick('0', '2', '4')}"
        if kind == 0:
            return f'{self.s(depth + 1)} == "x"'
        if kind == 1:
            return f'"w" in {self.s(depth + 1)}'
        if kind == 2:
            return f"{self.n(depth + 1)} > 2"
        if kind == 3:
            return f'{self.s(depth + 1)}.startswith("w")'
        if kind == 4:
            return f'"p" in {self.lst(depth + 1)}'
        return f"not {self.n(depth + 1)} > 1"

    def lst(self, depth: int = 0) -> str:
        kind = self.rng.randrange(5)
        if kind == 0 or depth > 2:
            return self.pick("xs", "list(ws)")
        if kind == 1:
            return f"[{self.s(depth + 1)}, {self.s(depth + 1)}]"
        if kind == 2:
            src = self.pick('["a", "b"]', '["www", "cc"]')
            cond = self.pick("w != s0", "len(w) > 1", "True", "w in s1")
            elt = self.pick("w.upper()", "w + s0", "s2")
            return f"[{elt} for w in {src} if {cond}]"
        if kind == 3:
            return f"xs + [{self.s(depth + 1)}]"
        return 'list(d.keys())'

    # -------------------------------------------------------------- statements

    def emit(self, indent: int, text: str) -> None:
        self.lines.append("    " * indent + text)

    def block(self, indent: int, size: int, in_loop: bool) -> None:
        for _ in range(size):
            self.stmt(indent, in_loop)

    def stmt(self, indent: int, in_loop: bool) -> None:
        kind = self.rng.randrange(19)
        while self.focused and kind in (0, 1, 14, 15, 16, 17):
            kind = self.rng.randrange(19)
        depth = indent - 1
        if kind in (0, 17):
            self.emit(indent, f"{self.pick(*STRS)} = read_web(\"u\")")
        elif kind == 1:
            self.emit(indent, f"{self.pick(*INTS)} = read_num(\"k\")")
        elif kind in (2, 3):
            self.emit(indent, f"{self.pick(*STRS)} = {self.s()}")
        elif kind == 4:
            self.emit(indent, f"{self.pick(*INTS)} = {self.n()}")
        elif kind == 5:
            self.emit(indent, f"xs = {self.lst()}")
        elif kind == 6:
            self.emit(indent, f"d[{self.s()}] = {self.s()}")
        elif kind == 7:
            self.emit(indent, f"xs.append({self.s()})")
        elif kind == 8:
            self.emit(indent, f"{self.pick(*INTS)} += {self.n()}")
        elif kind in (9, 10) and depth < 2:
            self.emit(indent, f"if {self.c()}:")
            self.block(indent + 1, self.rng.randint(1, 2), in_loop)
            if self.rng.random() < 0.5:
                self.emit(indent, "else:")
                self.block(indent + 1, self.rng.randint(1, 2), in_loop)
        elif kind == 11 and depth < 2 and self.loops < 2:
            self.loops += 1
            var = f"w{self.loops}"
            if self.rng.random() < 0.4:
                # A loop over a trusted result may only call effects (LOOP-2): no outer name changes.
                self.emit(indent, f"for {var} in ws:")
                if self.rng.random() < 0.5:
                    self.emit(indent + 1, f"if {self.pick('len(' + var + ') > 1', var + ' == s0', 'n0 > 1')}:")
                    indent += 1
                self.emit(indent + 1, self.pick(f"send({var}, {self.s()})", f"send(s1, {var})",
                                                f"log(len({var}))"))
            else:
                self.emit(indent, f'for {var} in ["a", "www", "x"]:')
                self.emit(indent + 1, f"{self.pick(*STRS)} = {self.pick(*STRS)} + {var}")
                self.block(indent + 1, self.rng.randint(0, 2), True)
        elif kind == 12 and in_loop:
            self.emit(indent, f"if {self.c()}:")
            self.emit(indent + 1, self.pick("break", "continue"))
        elif kind == 13 and self.rng.random() < 0.4:
            self.emit(indent, f"if {self.c()}:")
            self.emit(indent + 1, "return")
        elif kind == 18:
            self.emit(indent, f"if {self.c()}:")  # the plainest implicit flow: a call under a condition
            self.emit(indent + 1, self.pick('send("ann", "yes")', "log(1)"))
        elif kind in (14, 15):
            self.emit(indent, f"send({self.s()}, {self.s()})")
        else:
            self.emit(indent, f"log({self.n()})")


def program(seed: int) -> str:
    """Even seeds: anything goes; odd seeds: one read first, then plumbing, then the sinks (a leak is rarer,
    so a wrongly proved one shows in the values)."""
    g = Gen(random.Random(seed), focused=seed % 2 == 1)
    if g.focused:
        g.emit(1, g.pick('s0 = read_web("u")', 'n0 = read_num("k")', 'xs = list(read_words("w"))'))
        g.block(1, g.rng.randint(2, 5), False)
    else:
        g.block(1, g.rng.randint(4, 9), False)
    g.emit(1, f"send({g.s()}, {g.s()})")
    g.emit(1, f"log({g.n()})")
    return HEADER + "\n".join(g.lines) + "\n"
