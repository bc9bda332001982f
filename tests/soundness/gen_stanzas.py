"""Stanzas of the generator that cover what the checker accepts (issue 18), mixed into ``Builder``.

* ``st_op``: one entry of the operation table (``clauz3.language.operations``), on arguments that are
  edge literals, trusted results (``read_*``) or earlier names, with its result observed by an
  effect a guarantee watches (an int paid, a float noted, a str sent, a bool or a length opening
  the back door). A prover that models the operation wrongly proves a guarantee a run breaks, or
  proves no exception where the run raises.
* the families of issue 18, written as programs a sound checker refuses or a sound prover does not
  prove, so that a checker or prover that accepts them is caught by its run: names bound only in a
  loop that may run zero times, types that change on a later iteration, Optional values tested
  against None, enumerate over sets with repeats and dicts with overwritten keys, ordering between
  sets and between a tuple and a list, unhashable values behind ``object`` elements, constant
  folds that overflow.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from opdiff import EDGES, literal

from clauz3.language.operations import OPERATIONS

UNKNOWN = object()
UNSET = object()
# (int, float) pairs where the float cannot hold the int exactly, or only just can.
NEAR = ((2**53 + 1, 2.0**53), (2**53, 2.0**53), (2**53 - 1, 2.0**53), (2**53 + 1, 2.0**53 + 2),
        (-(2**53) - 1, -(2.0**53)), (10**30, 1e30), (2**63, 2.0**63), (2**63 + 1, 2.0**63), (3, 3.0),
        (1, 0.9999999999999999), (-1, -1.0000000000000002))
OP_KEYS = sorted(k for k, op in OPERATIONS.items() if not op.refused)
RAISING = sorted(k for k in OP_KEYS if OPERATIONS[k].raises)

# Families with a known soundness bug whose fix is being made elsewhere (tests/soundness/found_by_generator):
# the default tier leaves them out so it can hold everything else at 0 violations; `--all-families`
# puts them back. Add an entry while a fix is open, remove it when the fix lands (issue 18's families
# 1-6 are fixed: none is open).
OPEN_STANZAS: dict[str, str] = {}
OPEN_OPS: set[tuple[str, str]] = set()  # (operation, kind in the signature) left out
SMALL_EDGES_ONLY: set[str] = set()  # operations kept to their small edges
# Signatures the table lists with the exception they raise and the checker refuses outright: a program
# holding one is refused as a whole, so ordinary programs leave them out (gen_families' probes check
# that the checker refuses them).
CHECKER_REFUSES = {(op, "set[int]") for op in ("<", "<=", ">", ">=")}
ALL_FAMILIES = [False]  # set by gen_check --all-families
# Operations are taken in turn within a program (from a drawn start, generator.build), so a run reaches
# the entries of the table about equally often; gen_check's top-up programs reach the rest.
OP_CURSOR = [0]
# The entry a top-up program is about (gen_check: entries still under the coverage floor after the run).
FOCUS: list[str | None] = [None]
READS = {
    "int": ("read_int('k')", "read_big('k')"), "float": ("read_float('f')",), "str": ("read_str('s')",),
    "bool": ("read_flag('b')",), "list[int]": ("read_list('l')",), "set[int]": ("read_set('s')",),
    "dict[str, int]": ("read_dict('d')",), "list[str]": ("read_strs('s')",), "list[float]": ("read_floats('f')",),
}
POOLS = {"int": "int", "float": "float", "bool": "bool", "str": "str", "list[int]": "list", "list[str]": "slist",
         "set[int]": "set", "dict[str, int]": "dict"}
BOOLS = {"==", "!=", "<", "<=", ">", ">=", "in", "not_in", "is", "is_not", "unary not", "math.isclose",
         "math.isinf", "math.isnan", "str.startswith", "str.endswith", "bool"} | {
    f"str.{m}" for m in ("isdigit", "isalpha", "isalnum", "isspace", "islower", "isupper")}
INTS = {"len", "ord", "str.count", "str.find", "str.index", "list.index", "list.count", "math.floor", "math.ceil",
        "math.trunc", "int", "unpack", "dict.get"}
STRS = {"str", "chr", "fstring", "format", "str.join", "str.replace"} | {
    f"str.{m}" for m in ("strip", "lstrip", "rstrip", "lower", "upper", "title", "capitalize", "casefold",
                         "swapcase")}
SIZED = {"list", "tuple", "set", "dict", "range", "enumerate", "for", "listcomp", "dict.keys", "dict.values",
         "dict.items", "str.split", "list.append", "list.extend", "set.add", "setitem", "dict setitem", "slice"}


def result_kind(key: str, sig: tuple[str, ...]) -> str:
    """The kind of an operation's result, as far as the observation needs it."""
    if key in BOOLS:
        return "bool"
    if key in INTS:
        return "int"
    if key in STRS:
        return "str"
    if key in SIZED:
        return "sized"
    if key == "/":
        return "float"
    if key == "print":
        return "none"
    kinds = [k.rstrip("!") for k in sig]
    if key == "subscript":
        return "str" if kinds[0] == "str" else "int"
    if key in ("min", "max") and len(kinds) == 1:
        return {"list[float]": "float", "list[str]": "str"}.get(kinds[0], "int")
    if key in ("&", "|", "^") and kinds == ["bool", "bool"]:
        return "bool"
    if key == "ifexp":
        kinds = kinds[1:]
    if key in ("and", "or") and kinds[0] not in ("int", "float", "str", "bool"):
        return "sized" if kinds[0] not in ("None", "int | None") else "none"
    if "float" in kinds or "list[float]" in kinds:
        return "float"
    if "str" in kinds and key in ("+", "*", "augassign", "and", "or", "ifexp"):
        return "str"
    if any(k.startswith(("list", "tuple")) for k in kinds) and key in ("+", "*", "augassign"):
        return "sized"
    if kinds and kinds[0] == "None":
        return "none"
    if kinds and all(k == "bool" for k in kinds) and key in ("and", "or", "ifexp"):
        return "bool"
    return "int"


class Stanzas:
    """Mixed into ``generator.Builder`` (which supplies ``ch``, ``fresh``, ``bind``, ``var``, ``used``)."""

    ch: Any
    used: set[str]
    traps: list[str]  # guarantees about the stanzas' own doors: always kept (generator.build)
    literal_args: bool  # every operation argument a literal (a battery program, generator.build)
    last_result: str  # the name ``apply`` bound last

    def fresh(self, kind: str) -> str: ...  # Builder's

    def var(self, kind: str) -> str | None: ...  # Builder's

    def op_arg(self, kind: str, lines: list[str], small: bool = False, known: list[Any] | None = None,
               preset: Any = UNSET) -> str:
        """An argument of ``kind``; its value appended to ``known`` when it is a literal (else a marker)."""
        known = [] if known is None else known
        if kind.endswith("!") or kind == "None":
            edges = EDGES[kind]
            value = self.ch.choice(edges[:4] if small or self.ch.chance(0.7) else edges)
            known.append(value)
            return literal(kind.rstrip("!"), value)
        # Mostly literals, whose result the generator knows and traps (a top-up program's are all known,
        # and so are a battery's, generator.build); now and then a trusted result or an earlier name.
        r = 10 if preset is not UNSET else self.ch.int(3 if FOCUS[0] or self.literal_args else 0, 9)
        known.append(UNKNOWN)
        if r < 2 and kind in READS:
            return self.ch.choice(READS[kind][:1] if small else READS[kind])
        if r < 3 and kind in POOLS and (v := self.var(POOLS[kind])):
            return v
        edges = EDGES[kind]
        value = preset if preset is not UNSET else self.ch.choice(
            edges[:4] if small or self.ch.chance(0.35) else edges)
        known[-1] = value
        name = self.fresh("arg")
        lines.append(f"{name}: {kind} = {literal(kind, value)}")
        return name

    def raise_probe(self) -> list[str]:
        """An entry of the table that can raise, on literal arguments on which it does (tried a few times):
        a program a sound prover leaves unproved, and a run of it raises if a prover proves it."""
        self.literal_args = True
        key = self.ch.choice(RAISING)
        op = OPERATIONS[key]
        for _ in range(12):
            sig = self.ch.choice(op.domain)
            if any((key, k) in CHECKER_REFUSES for k in sig):
                continue
            lines: list[str] = []
            known: list[Any] = []
            args = [self.op_arg(kind, lines, False, known, preset) for kind, preset in zip(sig, self.near(sig),
                                                                                            strict=True)]
            if UNKNOWN not in known and raises(op, sig, known) and not slow(key, sig, known):
                return lines + self.apply(op, args)
        return self.st_lookup(0)

    def apply(self, op: Any, args: list[str]) -> list[str]:
        """The template's lines on ``args`` (each evaluated once, into a name), binding a fresh result."""
        lines: list[str] = []
        names = []
        for a in args:
            if re.fullmatch(r"[a-z_][a-z0-9_]*", a) or a in ("None", "True", "False") or re.fullmatch(r"-?\d+", a):
                names.append(a)
            else:
                n = self.fresh("arg")
                lines.append(f"{n} = {a}")
                names.append(n)
        out = self.fresh("res")
        self.last_result = out
        body = re.sub(r"\br\b", out, op.source(names)).replace("for x in", "for xx in").replace(
            "[x for xx", "[xx for xx").replace("r.append(x)", "r.append(xx)").replace(f"{out}.append(x)",
                                                                                      f"{out}.append(xx)")
        return lines + body.split("\n")

    def st_op(self, depth: int) -> list[str]:
        OP_CURSOR[0] += 1
        key = OP_KEYS[(OP_CURSOR[0] + self.ch.int(0, 2)) % len(OP_KEYS)]
        if FOCUS[0] in OPERATIONS:
            key = FOCUS[0]
        op = OPERATIONS[key]
        sig = self.ch.choice(op.domain)
        left_out = CHECKER_REFUSES | (set() if ALL_FAMILIES[0] else OPEN_OPS)
        if any((key, k) in left_out for k in sig):
            sig = next((d for d in op.domain if not any((key, k) in left_out for k in d)), sig)
            if any((key, k) in left_out for k in sig):
                return self.st_small(depth)
        small = key in SMALL_EDGES_ONLY and not ALL_FAMILIES[0]
        for _ in range(12 if FOCUS[0] or self.literal_args else 4):
            # Mostly arguments on which the operation does not raise (found by running it in Python),
            # so most programs prove and run; a raising case now and then keeps the exceptions covered.
            lines: list[str] = []
            known: list[Any] = []
            presets = self.near(sig)
            args = [self.op_arg(kind, lines, small, known, preset) for kind, preset in zip(sig, presets, strict=True)]
            if slow(key, sig, known):
                continue
            # A few raising cases are kept (most are left to raise_probe's programs, where a raise does not
            # leave a whole program unproved).
            if UNKNOWN in known or not raises(op, sig, known) or self.ch.chance(0.1):
                break
        # Arguments evaluated once, into names, so an f-string template never nests quotes.
        lines += self.apply(op, args)
        out = self.last_result
        if UNKNOWN not in known:
            # Every argument is a literal: the result is known (run in Python), so the program tests it
            # exactly (a trap, both ways) instead of through a threshold a guarantee may not sit on.
            raised, value = outcome(op, sig, known)
            test = None if raised else value_test(out, value)
            if test is not None:
                return lines + self.trap(test)
        return lines + self.observe(out, result_kind(key, sig))

    def near(self, sig: tuple[str, ...]) -> tuple[Any, ...]:
        """Preset arguments: an int and a float on either side of where floats stop being exact, now and
        then (``UNSET`` for each argument otherwise: op_arg draws it)."""
        kinds = tuple(k.rstrip("!") for k in sig)
        if kinds in (("int", "float"), ("float", "int")) and self.ch.chance(0.5):
            i, f = self.ch.choice(NEAR)
            return (i, f) if kinds[0] == "int" else (f, i)
        return tuple(UNSET for _ in sig)

    def observe(self, name: str, kind: str) -> list[str]:
        """An effect that shows the value to a guarantee."""
        if kind == "bool":
            return self.watch(f"{'not ' if self.ch.chance(0.5) else ''}{name}")
        if kind == "int":
            self.used.add("pay")
            if self.ch.chance(0.5):
                return [f"if 0 <= {name} <= 9:", f"    pay({name})"]
            return self.watch(f"{name} == {self.ch.choice((0, 1, 2, 3, -1))}")
        if kind == "float":
            self.used.add("note")
            return [f"note({name})"]
        if kind == "str":
            self.used.add("send")
            return [f"send({name}, 1)"]
        if kind == "sized":
            self.used.add("pay")
            if self.ch.chance(0.5):
                return [f"pay(len({name}))"]
            return self.watch(f"len({name}) == {self.ch.choice((0, 1, 2, 3))}")
        return []

    def door(self) -> str:
        """A door no other statement touches, so a guarantee about it speaks of one test only."""
        return repr(self.fresh("door"))

    def watch(self, cond: str) -> list[str]:
        """Unlock a door of its own when ``cond`` holds; `locked_at_end` of it, always kept, is proved only
        when the prover finds ``cond`` never true: a run where it is true breaks a wrong proof."""
        d = self.door()
        self.traps.append(f"g.locked_at_end({d})")
        return [f"if {cond}:", f"    unlock({d})"]

    def trap(self, cond: str) -> list[str]:
        """``cond`` holds on every run (the generator computed it): one door of its own unlocked when it
        holds, another when it does not, and `locked_at_end` of both kept. A right prover proves the
        second (so the program runs) and never the first; a prover whose model makes ``cond`` false
        proves the first and the run breaks it; an interpreter that makes it false breaks the second."""
        yes, no = self.door(), self.door()
        self.traps += [f"g.locked_at_end({yes})", f"g.locked_at_end({no})"]
        return [f"if {cond}:", f"    unlock({yes})", "else:", f"    unlock({no})"]

    def st_small(self, depth: int) -> list[str]:
        """The statement kinds the other stanzas rarely make: assert, pass, raise, continue, a built row."""
        self.used.add("send")
        self.used.add("pay")
        variants = [
            ["xs9 = read_list('l')", "assert len(xs9) >= 0", "pass", "for vv in [1, 7, 2]:", "    if vv > 5:",
             "        continue", "    pay(1)"],
            ["xs9 = read_list('l')", "if len(xs9) > 7:", "    raise ValueError('too many')", "pay(len(xs9))"],
            ["c9 = Contact(email=read_str('s'), vip=read_flag('b'))", "if c9.vip:", "    send(c9.email, 1)"],
            ["f9 = read_float('f')", 'send(f"{f9:.2f}", 1)'],
            ["n9 = read_int('k')", 'send(f"{n9:>4}", 1)', "assert n9 <= 10"],
        ]
        if FOCUS[0] == "small":  # a top-up program: every kind at once
            return [line for v in variants for line in v]
        return self.ch.choice(variants)


def outcome(op: Any, sig: tuple[str, ...], values: list[Any]) -> tuple[bool, Any]:
    """(raised, r): the operation's own template run in Python on plain values, as the interpreter would."""
    import contextlib
    import io
    import math

    from opdiff import py_value

    names = [f"v{k}" for k in range(len(values))]
    env: dict[str, Any] = {"math": math, **{n: py_value(k.rstrip("!"), v) for n, k, v in zip(names, sig, values,
                                                                                           strict=True)}}
    try:
        with contextlib.redirect_stdout(io.StringIO()):  # print() must not reach gen_check's output
            exec(op.source(names), env)
    except Exception:
        return True, None
    return False, env.get("r", UNKNOWN)


def raises(op: Any, sig: tuple[str, ...], values: list[Any]) -> bool:
    """Does the operation raise on these literal values?"""
    return outcome(op, sig, values)[0]


def slow(key: str, sig: tuple[str, ...], values: list[Any]) -> bool:
    """A text or list repeated a known count from 10,001 to sys.maxsize: the prover's string solver runs
    out of time on it (5 s an obligation), a cost and not a soundness question, so it is drawn again.
    Counts past sys.maxsize (an OverflowError, family 6) and small ones are kept."""
    if key not in ("*", "augassign") or len(sig) != 2:
        return False
    counts = [v for k, v in zip(sig, values, strict=True) if k.rstrip("!") == "int" and isinstance(v, int)]
    seqs = [k for k in sig if k == "str" or k.startswith(("list", "tuple"))]
    return bool(seqs) and any(10_000 < abs(c) <= 2**63 - 1 for c in counts)


def written(v: Any) -> str | None:
    """``v`` as a literal the checker types as the value's own kind; None when it has none (NaN inside a
    collection, an empty collection, a value of no literal form)."""
    if isinstance(v, int) and not isinstance(v, bool) and abs(v).bit_length() > 4 * 3300:
        return None  # past the checker's (and CPython's) digits for an int literal
    if v is None or isinstance(v, (bool, int, str)):
        return repr(v)  # a bool is tested through str() (value_test): True == 1 would hide an int
    if isinstance(v, float):
        return None if v != v else literal("float", v)
    if isinstance(v, (list, tuple)):
        parts = [written(x) for x in v]
        if not parts or any(p is None for p in parts):
            return None
        if isinstance(v, list):
            return "[" + ", ".join(p for p in parts if p) + "]"
        return "(" + ", ".join(p for p in parts if p) + ("," if len(parts) == 1 else "") + ")"
    if isinstance(v, dict):
        pairs = [(written(k), written(x)) for k, x in v.items()]
        if not pairs or any(a is None or b is None for a, b in pairs):
            return None
        # Written in reverse: equality must not depend on the order the entries were made in.
        return "{" + ", ".join(f"{a}: {b}" for a, b in reversed(pairs)) + "}"
    if isinstance(v, (set, frozenset)) or (hasattr(v, "contains") and hasattr(v, "__iter__")):
        parts = [written(x) for x in v]
        if not parts or any(p is None or p == "None" for p in parts):
            return None
        if isinstance(v, (set, frozenset)):  # CPython's order hangs on the hash seed: sorted, so generation is
            parts = sorted(p for p in parts if p)  # the same in every process
        return "{" + ", ".join(p for p in reversed(parts) if p) + "}"  # in reverse, as a dict
    return None


def value_test(name: str, v: Any) -> str | None:
    """A condition that holds exactly when ``name`` is ``v`` (or has its length, when ``v`` has no literal)."""
    if v is UNKNOWN:
        return None
    if v is None:
        return f"{name} is None"
    if isinstance(v, float) and v != v:
        return f"math.isnan({name})"
    if isinstance(v, bool):
        return f"str({name}) == {str(v)!r}"
    w = written(v)
    if w is not None:
        return f"{name} == {w}"
    if hasattr(v, "__len__") and not isinstance(v, str):
        return f"len({name}) == {len(v)}"
    return None



