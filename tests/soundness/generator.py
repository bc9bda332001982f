"""Random programs over the checked subset, for the generative differential check (issue 10).

A program is a list of top-level statements of ``main`` (each a block of source lines), built from
choices made by a :class:`Chooser` — hypothesis draws in the test (so hypothesis shrinks a failure),
a ``random.Random`` in survey and soak runs. The builder aims at the places where a prover and an
interpreter can disagree: bindings through every expression form (``or``/``and``/ternary/``.get``/
helper returns) and containers inside containers, then mutations of the original; loops that mutate
what they iterate; sets (hash order); dict views; NaN and infinities; branches merging bool/int/float;
early exits; keyword calls in any order with effects in the arguments; big ints under ``str``.

The guarantees are a bundle over the effects the program uses, at several thresholds, so the prover
proves the tightest ones its own model supports; a disagreement with the interpreter then shows as a
proved guarantee that a run breaks.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from gen_families import FAMILY_STANZAS, Families
from gen_stanzas import ALL_FAMILIES, OPEN_STANZAS, Stanzas
from gen_uses import Uses

T = TypeVar("T")
BATTERY_SHARE = 0.3  # programs that are operation batteries (build)

HEADER = """import math

import clauz3
from tools.gen.trusted import contracts as g
from tools.gen.trusted.rows import Contact
from tools.gen.trusted.effects import (
    contacts, lock, note, pair, pay, read_big, read_dict, read_flag, read_float, read_floats, read_int, read_list,
    read_set, read_str, read_strs, send, unlock,
)


def ident(x):
    return x


def pick(c, a, b):
    if c:
        return a
    return b


def first_or(xs, d):
    if len(xs) > 0:
        return xs[0]
    return d


def pay_and_count(k):
    pay(k)
    return k + 1

"""

NAMES = ("a", "b", "evil")
DOORS = ("front", "back")
INT_LITS = (0, 1, 2, 3, 5, 9)
ODD_STRS = ("ß", "İ", "ﬁ", "😀", "", " a ", "A", "Evil")
PRINTED = ("SS", "EVIL", "1e+16", "-0.0", "-inf", "0.30000000000000004", "True", "False", "1", "0", "2", "1.0", "2.5", "0.5", "nan", "inf", "9007199254740993",
           "9007199254740992.0", "9007199254740992")
FLOAT_LITS = ("0.5", "1.0", "-0.0", "1e16", "0.1", 'float("nan")', 'float("inf")', "math.inf", "-math.inf",
              "9007199254740993.0")


class Chooser:
    """Where the choices come from."""

    def choice(self, options: Sequence[T]) -> T:
        raise NotImplementedError

    def int(self, lo: int, hi: int) -> int:
        raise NotImplementedError

    def chance(self, p: float) -> bool:
        return self.int(0, 999) < int(p * 1000)


class RandomChooser(Chooser):
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choice(self, options: Sequence[T]) -> T:
        return options[self.rng.randrange(len(options))]

    def int(self, lo: int, hi: int) -> int:
        return self.rng.randint(lo, hi)


class DrawChooser(Chooser):
    """Choices drawn from hypothesis's ``data`` (``st.data()``), so failures shrink."""

    def __init__(self, draw: Callable[[object], object]) -> None:
        from hypothesis import strategies as st

        self.draw = draw
        self.st = st

    def choice(self, options: Sequence[T]) -> T:
        return options[self.draw(self.st.integers(0, len(options) - 1))]  # type: ignore[index]

    def int(self, lo: int, hi: int) -> int:
        return self.draw(self.st.integers(lo, hi))  # type: ignore[return-value]


@dataclass
class Program:
    guarantees: list[str]
    statements: list[list[str]]
    params: str = ""  # target parameters without defaults: the proof covers every value (MOD-5)
    # What the generator built: "refuse" (a probe a sound checker refuses, gen_families.Families.probe),
    # or "" (no verdict expected: the program's traps and guarantees speak for it).
    expect: str = ""

    def source(self, statements: list[list[str]] | None = None) -> str:
        body = [line for block in (self.statements if statements is None else statements) for line in block]
        decorators = [f"@clauz3.guarantee({g})" for g in self.guarantees]
        return HEADER + "\n" + "\n".join(decorators) + f"\ndef main({self.params}) -> None:\n" + "\n".join(
            "    " + line for line in (body or ["pass"])) + "\n"


@dataclass
class Builder(Stanzas, Families, Uses):
    ch: Chooser
    traps: list[str] = field(default_factory=list)
    literal_args: bool = False
    last_result: str = ""
    pool: dict[str, list[str]] = field(default_factory=dict)
    used: set[str] = field(default_factory=set)
    count: int = 0

    # ---------------------------------------------------------------- names
    def fresh(self, kind: str) -> str:
        self.count += 1
        name = f"{kind[0]}{self.count}"
        return name

    def bind(self, name: str, kind: str) -> None:
        self.pool.setdefault(kind, []).append(name)

    def var(self, kind: str) -> str | None:
        names = self.pool.get(kind) or []
        return self.ch.choice(names) if names else None

    # ---------------------------------------------------------------- expressions
    def int_expr(self, depth: int = 0) -> str:
        v = self.var("int")
        forms = ["lit", "lit", "read", "var", "var", "arith", "ternary", "or", "and", "get", "ident", "pick",
                 "len", "sum", "index", "minmax", "lockval", "helper", "bool_as_int", "bits", "strlen", "floor",
                 "count"]
        if depth > 1:
            forms = ["lit", "var", "read"]
        f = self.ch.choice(forms)
        if f == "var" and v:
            return v
        if f == "read":
            return self.ch.choice(("read_int('k')", "read_int('j')", "read_big('k')"))
        if f == "arith":
            op = self.ch.choice(("+", "-", "*", "//", "%"))
            right = self.ch.choice(("1", "2", "3")) if op in ("//", "%") else self.int_expr(depth + 1)
            return f"({self.int_expr(depth + 1)} {op} {right})"
        if f == "ternary":
            return f"({self.int_expr(depth + 1)} if {self.bool_expr(depth + 1)} else {self.int_expr(depth + 1)})"
        if f in ("or", "and"):
            return f"({self.int_expr(depth + 1)} {f} {self.int_expr(depth + 1)})"
        if f == "get" and (d := self.var("dict")):
            return f'{d}.get({self.ch.choice(NAMES)!r}, {self.int_expr(depth + 1)})'
        if f == "ident":
            return f"ident({self.int_expr(depth + 1)})"
        if f == "pick":
            return f"pick({self.bool_expr(depth + 1)}, {self.int_expr(depth + 1)}, {self.int_expr(depth + 1)})"
        if f == "len" and (xs := self.var("list") or self.var("set") or self.var("dict")):
            return f"len({xs})"
        if f == "sum" and (xs := self.var("list")):
            return f"sum({xs})"
        if f == "index" and (xs := self.var("list")):
            return f"{xs}[{self.ch.choice(('0', '-1', '1'))}]"
        if f == "minmax":
            return f"{self.ch.choice(('min', 'max'))}({self.int_expr(depth + 1)}, {self.int_expr(depth + 1)})"
        if f == "lockval":
            self.used.add("door")
            return f"{self.ch.choice(('lock', 'unlock'))}({self.ch.choice(DOORS)!r})"
        if f == "helper":
            self.used.add("pay")
            return f"pay_and_count({self.ch.choice(INT_LITS)})"
        if f == "bool_as_int" and (b := self.var("bool")):
            return self.ch.choice((f"(1 if {b} else 0)", f"({b} + {b})", f"({b} * 3)"))
        if f == "bits":
            op = self.ch.choice(("<<", ">>", "&", "|", "^", "**"))
            return f"({self.int_expr(depth + 1)} {op} {self.ch.choice(('1', '2', '3'))})" if op != "~" else ""
        if f == "strlen":
            return f"len({self.str_expr(depth + 1)})"
        if f == "floor":
            return f"math.{self.ch.choice(('floor', 'ceil', 'trunc'))}({self.float_expr(depth + 1)})"
        if f == "count" and (xs := self.var("list")):
            return f"{xs}.{self.ch.choice(('count', 'index'))}({self.int_expr(depth + 1)})"
        return str(self.ch.choice(INT_LITS))

    def float_expr(self, depth: int = 0) -> str:
        f = self.ch.choice(("lit", "lit", "read", "var", "arith", "ternary", "fromint", "sum", "merge", "minmax",
                            "div", "abs"))
        if depth > 1:
            f = self.ch.choice(("lit", "var"))
        if f == "var" and (v := self.var("float")):
            return v
        if f == "read":
            return "read_float('f')"
        if f == "arith":
            return f"({self.float_expr(depth + 1)} {self.ch.choice(('+', '-', '*'))} {self.float_expr(depth + 1)})"
        if f == "ternary":
            return f"({self.float_expr(depth + 1)} if {self.bool_expr(depth + 1)} else {self.float_expr(depth + 1)})"
        if f == "fromint":
            return f"float({self.int_expr(depth + 1)})"
        if f == "sum":
            return self.ch.choice(("sum([1e16, 1.0, -1e16])", "sum([0.1, 0.2, 0.3])",
                                   f"sum([{self.float_expr(depth + 1)}, {self.float_expr(depth + 1)}])"))
        if f == "merge":
            return f"({self.int_expr(depth + 1)} if {self.bool_expr(depth + 1)} else {self.float_expr(depth + 1)})"
        if f == "minmax":
            return f"{self.ch.choice(('min', 'max'))}({self.float_expr(depth + 1)}, {self.float_expr(depth + 1)})"
        if f == "div":
            return f"({self.float_expr(depth + 1)} / {self.float_expr(depth + 1)})"
        if f == "abs":
            return f"abs({self.float_expr(depth + 1)})"
        return self.ch.choice(FLOAT_LITS)

    def bool_expr(self, depth: int = 0) -> str:
        f = self.ch.choice(("read", "var", "cmp", "fcmp", "in", "not", "nan_in", "setlen", "andor", "lit", "chain",
                            "strtest"))
        if depth > 1:
            f = self.ch.choice(("read", "var", "lit"))
        if f == "var" and (v := self.var("bool")):
            return v
        if f == "cmp":
            return f"({self.int_expr(depth + 1)} {self.ch.choice(('<', '<=', '==', '!=', '>'))} {self.int_expr(depth + 1)})"
        if f == "fcmp":
            return f"({self.float_expr(depth + 1)} {self.ch.choice(('<', '==', '!=', '>='))} {self.float_expr(depth + 1)})"
        if f == "in" and (xs := self.var("list") or self.var("set")):
            return f"({self.int_expr(depth + 1)} in {xs})"
        if f == "not":
            return f"(not {self.bool_expr(depth + 1)})"
        if f == "nan_in" and (x := self.var("float")):
            return self.ch.choice((f"({x} in [{x}])", f"(len({{{x}, {x}}}) == 1)", f"({x} in {{{x}}})",
                                   f"({x} == {x})"))
        if f == "setlen" and (s := self.var("set")):
            return f"(len({s}) == {self.ch.choice(INT_LITS)})"
        if f == "andor":
            return f"({self.bool_expr(depth + 1)} {self.ch.choice(('and', 'or'))} {self.bool_expr(depth + 1)})"
        if f == "lit":
            return self.ch.choice(("True", "False"))
        if f == "chain":
            return f"({self.int_expr(depth + 1)} < {self.int_expr(depth + 1)} <= {self.int_expr(depth + 1)})"
        if f == "strtest":
            s = self.str_expr(depth + 1)
            return self.ch.choice((f"{s}.startswith('a')", f"('a' in {s})", f"(len({s}) == 1)",
                                   f"({s} == {self.str_expr(depth + 1)})", f"({s} < 'b')"))
        return self.ch.choice(("read_flag('b')", "read_flag('c')"))

    def str_expr(self, depth: int = 0) -> str:
        f = self.ch.choice(("lit", "lit", "var", "str_of", "ternary", "or", "fstr", "index", "read", "get", "method",
                            "slice", "concat", "str_float", "odd_lit"))
        if depth > 1:
            f = self.ch.choice(("lit", "var"))
        if f == "var" and (v := self.var("str")):
            return v
        if f == "str_of":
            src = self.ch.choice(("int", "bool", "merged", "big"))
            if src == "bool":
                return f"str({self.bool_expr(depth + 1)})"
            if src == "merged" and (m := self.var("merged")):
                return f"str({m})"
            if src == "big":
                return f"str({self.int_expr(depth + 1)} ** {self.ch.choice(('2', '300', '5000'))})"
            return f"str({self.int_expr(depth + 1)})"
        if f == "ternary":
            return f"({self.str_expr(depth + 1)} if {self.bool_expr(depth + 1)} else {self.str_expr(depth + 1)})"
        if f == "or":
            return f"({self.str_expr(depth + 1)} or {self.str_expr(depth + 1)})"
        if f == "fstr":
            return f'f"{{{self.int_expr(depth + 1)}}}"'
        if f == "index" and (xs := self.var("slist")):
            return f"{xs}[{self.ch.choice(('0', '-1'))}]"
        if f == "read":
            return "read_str('s')"
        if f == "get" and (d := self.var("sdict")):
            return f"{d}.get({self.ch.choice(NAMES)!r}, {self.ch.choice(NAMES)!r})"
        if f == "method":
            m = self.ch.choice(("upper()", "lower()", "strip()", "replace('a', 'evil')", "lstrip('a')"))
            return f"{self.str_expr(depth + 1)}.{m}"
        if f == "slice":
            return f"{self.str_expr(depth + 1)}[{self.ch.choice(('1:', ':1', '-1:', ':-1'))}]"
        if f == "concat":
            return f"({self.str_expr(depth + 1)} + {self.str_expr(depth + 1)})"
        if f == "str_float":
            return f"str({self.float_expr(depth + 1)})"
        if f == "odd_lit":
            return repr(self.ch.choice(ODD_STRS))
        return repr(self.ch.choice(NAMES))

    # ---------------------------------------------------------------- statements
    def statement(self, depth: int = 0) -> list[str]:
        kinds = ["int", "float", "bool", "str", "effect", "effect", "effect", "list", "slist", "alias", "alias",
                 "mutate", "mutate", "set", "dict", "sdict", "view", "merge", "if", "loop", "loop", "exit",
                 "kwcall", "alias_use", "alias_use", "view_use", "set_use", "nan_use", "merge_use", "nested", "rows", "rows",
                 *["op"] * 40, *FAMILY_STANZAS, "small", "small"]
        if depth > 1:
            kinds = ["int", "effect", "effect", "mutate", "merge"]
        k = self.ch.choice(kinds)
        if k in OPEN_STANZAS and not ALL_FAMILIES[0]:
            k = "op"
        return getattr(self, f"st_{k}")(depth)

    def st_int(self, depth: int) -> list[str]:
        e = self.int_expr()
        n = self.fresh("int")
        self.bind(n, "int")
        return [f"{n} = {e}"]

    def st_float(self, depth: int) -> list[str]:
        e = self.float_expr()
        n = self.fresh("float")
        self.bind(n, "float")
        return [f"{n} = {e}"]

    def st_bool(self, depth: int) -> list[str]:
        e = self.bool_expr()
        n = self.fresh("bool")
        self.bind(n, "bool")
        return [f"{n} = {e}"]

    def st_str(self, depth: int) -> list[str]:
        e = self.str_expr()
        n = self.fresh("str")
        self.bind(n, "str")
        return [f"{n} = {e}"]

    def st_list(self, depth: int) -> list[str]:
        n = self.fresh("list")
        items = ", ".join(str(self.ch.choice(INT_LITS)) for _ in range(self.ch.int(0 if self.ch.chance(0.1) else 1, 3)))
        form = self.ch.choice(("display", "display", "listof", "comp", "read"))
        xs = self.var("list")
        if form == "read":
            self.bind(n, "ro_list")
            return [f"{n} = read_list('l')"]
        self.bind(n, "list")
        if form == "listof" and xs:
            return [f"{n} = list({xs})"]
        if form == "comp" and xs:
            return [f"{n} = [x + 1 for x in {xs} if x > {self.ch.choice(INT_LITS)}]"]
        return [f"{n} = [{items}]"]

    def st_slist(self, depth: int) -> list[str]:
        n = self.fresh("slist")
        items = ", ".join(repr(self.ch.choice(NAMES)) for _ in range(self.ch.int(1, 3)))
        self.bind(n, "slist")
        return [f"{n} = [{items}]"]

    def st_alias(self, depth: int) -> list[str]:
        """A second name for a collection through some expression form (issue 10 family 1)."""
        kind = self.ch.choice(("list", "slist"))
        xs = self.var(kind)
        if xs is None:
            return self.st_list(depth) if kind == "list" else self.st_slist(depth)
        n = self.fresh(kind)
        other = "[7]" if kind == "list" else '["b"]'
        form = self.ch.choice((
            f"{xs}", f"{xs} or {other}", f"{xs} and {xs}", f"{xs} if {self.bool_expr(1)} else {xs}",
            f"ident({xs})", f"pick({self.bool_expr(1)}, {xs}, {other})", f'{{"k": {xs}}}["k"]',
            f"({xs}, 1)[0]", f'{{"k": {xs}}}.get("k", {other})', f"[{xs}][0]", f"first_or([{xs}], {other})",
        ))
        self.bind(n, kind)
        return [f"{n} = {form}"]

    def st_mutate(self, depth: int) -> list[str]:
        kind = self.ch.choice(("list", "slist", "set", "dict", "sdict"))
        xs = self.var(kind)
        if xs is None:
            return self.st_list(depth)
        if kind == "list":
            return [self.ch.choice((f"{xs}.append({self.int_expr(1)})", f"{xs}[0] = {self.int_expr(1)}",
                                    f"{xs}.extend([{self.ch.choice(INT_LITS)}])"))]
        if kind == "slist":
            return [self.ch.choice((f'{xs}.append("evil")', f'{xs}[0] = "evil"', f'{xs}.extend(["evil"])'))]
        if kind == "set":
            return [f"{xs}.add({self.int_expr(1)})"]
        if kind == "sdict":
            return [f'{xs}[{self.ch.choice(NAMES)!r}] = "evil"']
        return [f"{xs}[{self.ch.choice(NAMES)!r}] = {self.int_expr(1)}"]

    def st_set(self, depth: int) -> list[str]:
        n = self.fresh("set")
        self.bind(n, "set")
        form = self.ch.choice(("{2, 9}", "{9, 2}", "{1, 8, 3}", "{16, 1}", "set()", "{0}"))
        if self.ch.chance(0.3) and (xs := self.var("list")):
            form = f"set({xs})"
        return [f"{n} = {form}"]

    def st_dict(self, depth: int) -> list[str]:
        n = self.fresh("dict")
        self.bind(n, "dict")
        items = ", ".join(f"{k!r}: {self.ch.choice(INT_LITS)}" for k in NAMES[: self.ch.int(1, 3)])
        return [f"{n} = {{{items}}}"]

    def st_sdict(self, depth: int) -> list[str]:
        n = self.fresh("sdict")
        self.bind(n, "sdict")
        items = ", ".join(f"{k!r}: {self.ch.choice(NAMES)!r}" for k in NAMES[: self.ch.int(1, 2)])
        return [f"{n} = {{{items}}}"]

    def st_view(self, depth: int) -> list[str]:
        d = self.var("sdict") or self.var("dict")
        if d is None:
            return self.st_sdict(depth)
        n = self.fresh("view")
        kind = "sview" if d in self.pool.get("sdict", []) else "iview"
        self.bind(n, kind)
        return [f"{n} = {d}.{self.ch.choice(('keys', 'values'))}()"]

    def st_merge(self, depth: int) -> list[str]:
        """A name bound to different scalar types on two branches (family 6)."""
        n = self.fresh("merged")
        a = self.ch.choice(("True", "False", "1", "2", "0", "1.0", "2.5", "9007199254740993", self.int_expr(1)))
        b = self.ch.choice(("True", "2", "1", "0.5", "9007199254740992.0", self.int_expr(1)))
        self.bind(n, "merged")
        return [f"if {self.bool_expr(1)}:", f"    {n} = {a}", "else:", f"    {n} = {b}"]

    def st_effect(self, depth: int) -> list[str]:
        k = self.ch.choice(("pay", "pay", "send", "send", "note", "door", "door"))
        self.used.add(k)
        if k == "pay":
            m = self.var("merged") if self.ch.chance(0.2) else None
            return [f"pay({m or self.int_expr()})"]
        if k == "send":
            to, n = self.str_expr(), self.ch.choice(("1", "2", self.int_expr(1)))
            if self.ch.chance(0.5):
                return [f"send(n={n}, to={to})"]
            return [f"send({to}, {n})"]
        if k == "note":
            return [f"note({self.float_expr()})"]
        door = self.ch.choice(DOORS) if self.ch.chance(0.8) else None
        target = repr(door) if door else self.str_expr(1)
        return [f"{self.ch.choice(('lock', 'unlock'))}({target})"]

    def st_kwcall(self, depth: int) -> list[str]:
        """Keyword arguments with effects, in source order different from parameter order (family 10)."""
        self.used.add("door")
        d = repr(self.ch.choice(DOORS))
        first, second = self.ch.choice((("lock", "unlock"), ("unlock", "lock")))
        if self.ch.chance(0.5):
            return [f"pair(b={first}({d}), a={second}({d}))"]
        self.used.add("send")
        return [f"send(n={first}({d}), to=str({second}({d})))"]

    def st_if(self, depth: int) -> list[str]:
        cond = self.bool_expr()
        saved = {k: list(v) for k, v in self.pool.items()}
        body = [line for _ in range(self.ch.int(1, 2)) for line in self.statement(depth + 1)]
        self.pool = saved  # names bound in one branch are not bound after it
        lines = [f"if {cond}:", *("    " + x for x in body)]
        if self.ch.chance(0.5):
            saved = {k: list(v) for k, v in self.pool.items()}
            other = self.statement(depth + 1)
            self.pool = saved
            lines += ["else:", *("    " + x for x in other)]
        return lines

    def st_exit(self, depth: int) -> list[str]:
        return [f"if {self.bool_expr()}:", "    return"]

    def st_loop(self, depth: int) -> list[str]:
        """A loop over a collection, view, set or range; its body may mutate what it iterates (family 3)."""
        candidates = [("list", self.var("list")), ("slist", self.var("slist")), ("set", self.var("set")),
                      ("items", self.var("dict")), ("sitems", self.var("sdict")), ("sview", self.var("sview")),
                      ("iview", self.var("iview")), ("ro", self.var("ro_list")), ("range", "range(3)")]
        kind, it = self.ch.choice([c for c in candidates if c[1] is not None])
        saved = {k: list(v) for k, v in self.pool.items()}
        if kind in ("items", "sitems"):
            header = f"for kk, vv in {it}.items():"
            self.bind("kk", "str")
            self.bind("vv", "int" if kind == "items" else "str")
        else:
            header = f"for vv in {it}:"
            self.bind("vv", {"list": "int", "set": "int", "iview": "int", "ro": "int", "range": "int"}.get(
                kind, "str"))
        body: list[str] = []
        for _ in range(self.ch.int(1, 3)):
            r = self.ch.int(0, 9)
            if r < 2 and kind not in ("ro", "range"):
                body += self.mutate_iterated(kind, it)
            elif r < 3 and kind != "ro":
                body += [f"if {self.bool_expr(1)}:", f"    {self.ch.choice(('break', 'continue'))}"]
            else:
                body += self.st_effect(depth + 1)
        self.pool = saved
        return [header, *("    " + x for x in body)]

    def mutate_iterated(self, kind: str, it: str) -> list[str]:
        base = it.split(".", 1)[0]
        if kind == "list":
            return [f"if vv == {self.ch.choice(INT_LITS)}:", f"    {it}.append(vv + 1)"]
        if kind == "slist":
            if self.ch.chance(0.5):
                return [f'{it}[0] = "evil"']
            return ['if vv == "a":', f'    {it}.append("evil")']
        if kind == "set":
            return [f"{it}.add(vv + 8)"]
        if kind in ("items", "sitems"):
            value = "1" if kind == "items" else '"evil"'
            return [self.ch.choice((f"{it}[kk] = {value}", f'{it}["evil"] = {value}'))]
        # a view: mutate the dict under it
        d = next((n for n in self.pool.get("sdict", []) + self.pool.get("dict", []) if n == base), None)
        owner = d or base
        value = '"evil"' if kind == "sview" else "1"
        return [f'{owner}["evil"] = {value}']

    # ---------------------------------------------------------------- whole programs
    def guarantees(self) -> list[str]:
        out: list[str] = []
        if "pay" in self.used:
            for limit in sorted({self.ch.choice((0, 1, 2, 3, 5, 9, 10, 12, 20)) for _ in range(3)}):
                out.append(f"g.max_pay({limit})")
            out.append(f"g.pays_at_most({self.ch.choice((0, 1, 2, 3))})")
            if self.ch.chance(0.3):
                out.append(f"g.spent_at_most({self.ch.choice((0, 2, 5, 9, 10))})")
        if "send" in self.used:
            out += [f"g.never_to({n!r})" for n in NAMES if self.ch.chance(0.5)]
            # What str() and f-strings of merged, NaN or big values may print (families 5, 6).
            out += [f"g.never_to({n!r})" for n in sorted({self.ch.choice(PRINTED) for _ in range(3)})]
            out.append(self.ch.choice(('g.only_to(["a", "b"])', 'g.only_to(["a"])', 'g.only_to(["1", "2"])',
                                       'g.only_to(["True", "1"])', 'g.only_to(["1", "2", "0"])',
                                       'g.only_to(["False", "True"])', 'g.only_to(["1.0", "2.5", "0.5"])')))
            out.append(f"g.messages_at_most({self.ch.choice((1, 2, 3, 5))})")
            if self.ch.chance(0.3):
                out.append(self.ch.choice((f"g.no_outgoing_to({self.ch.choice(NAMES + PRINTED)!r})",
                                           f"g.outgoing_at_most({self.ch.choice((0, 1, 2, 3))})")))
        if "note" in self.used:
            out.append("g.notes_are_numbers()")
            out.append(f"g.notes_below({self.ch.choice(('2.0', '1e16', '100.0'))})")
        if "rows" in self.used:
            out.append("g.to_contacts()")
        if "door" in self.used:
            out += [f"g.locked_at_end({d!r})" for d in DOORS]
            out.append(self.ch.choice(("g.all_locked_at_end()", 'g.unlocked_at_end("front")')))
        return out


def build(ch: Chooser, *, max_statements: int = 8, max_guarantees: int = 5) -> Program:
    b = Builder(ch)
    params = ""
    if ch.chance(0.35):
        params = "pi: int, ps: str, pf: float, pb: bool"
        for name, kind in (("pi", "int"), ("ps", "str"), ("pf", "float"), ("pb", "bool")):
            b.bind(name, kind)
    from gen_stanzas import FOCUS, OP_CURSOR, OP_KEYS

    # Where this program starts in the operation table, drawn (never carried over from the last program:
    # hypothesis replays draws, so generation must depend on them alone).
    OP_CURSOR[0] = ch.int(0, len(OP_KEYS) - 1)
    if FOCUS[0] is not None:  # a top-up program: the focused stanza, then a little context
        first = b.st_small(0) if FOCUS[0] == "small" else b.st_op(0)
        statements = [first, *[b.statement() for _ in range(ch.int(0, 1))]]
    elif ch.chance(BATTERY_SHARE):
        # A battery: entries of the operation table in turn (and number edges), every argument a literal,
        # each result trapped.
        b.literal_args = True
        statements = [b.st_edge_arith(0) if ch.chance(0.2) else b.st_op(0) for _ in range(ch.int(3, 6))]
    else:
        statements = [b.statement() for _ in range(ch.int(1, max_statements))]
    if not b.used and not b.traps:
        statements.append(b.st_effect(0))
    pool = b.guarantees()
    # Each guarantee is one more solver call: keep a random few (the order stays the source order). The
    # stanzas' traps are all kept: each is about one test of the program's and nothing else touches it.
    while len(pool) > max_guarantees:
        pool.pop(ch.int(0, len(pool) - 1))
    return Program(pool + b.traps, statements, params)


def build_probe(ch: Chooser) -> Program:
    """A small program whose verdict the generator knows (gen_check runs these besides ``build``'s):
    a statement a sound checker refuses (``expect="refuse"``), or an operation on literals it raises on
    (or a lookup that may miss), alone, which a sound prover leaves unproved and whose run raises."""
    b = Builder(ch)
    from gen_stanzas import OP_CURSOR, OP_KEYS

    OP_CURSOR[0] = ch.int(0, len(OP_KEYS) - 1)
    if ch.chance(0.5):
        return Program(["g.max_pay(1)"], [b.probe()], expect="refuse")
    return Program(["g.max_pay(1)"], [b.raise_probe() if ch.chance(0.75) else b.st_lookup(0)])
