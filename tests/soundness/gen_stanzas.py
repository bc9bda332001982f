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

OP_KEYS = sorted(k for k, op in OPERATIONS.items() if not op.refused)

# Families with a known soundness bug whose fix is being made elsewhere (tests/soundness/found_by_generator):
# the default tier leaves them out so it can hold everything else at 0 violations; `--all-families`
# (soak, guard power after the fixes) puts them back. Remove an entry when its fix lands.
OPEN_STANZAS = {"bad_order": "family 4: ordering between sets", "fold_overflow": "family 6: round() fold crash",
                "unhashable": "family 5: unhashable values behind object elements"}
OPEN_OPS = {  # (operation, kind in the signature) left out, and operations kept to their small edges
    ("<", "set[int]"), ("<=", "set[int]"), (">", "set[int]"), (">=", "set[int]"), ("round", "int!"),
    ("enumerate", "set[int]")}
SMALL_EDGES_ONLY = {"*", "/", "<<"}  # huge counts, quotients and shifts: repeat/shift overflow, fold overflow
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

    def fresh(self, kind: str) -> str: ...  # Builder's

    def var(self, kind: str) -> str | None: ...  # Builder's

    def op_arg(self, kind: str, lines: list[str], small: bool = False, known: list[Any] | None = None) -> str:
        """An argument of ``kind``; its value appended to ``known`` when it is a literal (else a marker)."""
        known = [] if known is None else known
        if kind.endswith("!") or kind == "None":
            edges = EDGES[kind]
            value = self.ch.choice(edges[:4] if small or self.ch.chance(0.7) else edges)
            known.append(value)
            return literal(kind.rstrip("!"), value)
        r = self.ch.int(3 if FOCUS[0] else 0, 9)  # a top-up program's arguments are known: it should prove
        known.append(UNKNOWN)
        if r < 3 and kind in READS:
            return self.ch.choice(READS[kind][:1] if small else READS[kind])
        if r < 5 and kind in POOLS and (v := self.var(POOLS[kind])):
            return v
        edges = EDGES[kind]
        value = self.ch.choice(edges[:4] if small or self.ch.chance(0.6) else edges)
        known[-1] = value
        name = self.fresh("arg")
        lines.append(f"{name}: {kind} = {literal(kind, value)}")
        return name

    def st_op(self, depth: int) -> list[str]:
        OP_CURSOR[0] += 1
        key = OP_KEYS[(OP_CURSOR[0] + self.ch.int(0, 2)) % len(OP_KEYS)]
        if FOCUS[0] in OPERATIONS:
            key = FOCUS[0]
        op = OPERATIONS[key]
        sig = self.ch.choice(op.domain)
        if not ALL_FAMILIES[0] and any((key, k) in OPEN_OPS for k in sig):
            sig = next((d for d in op.domain if not any((key, k) in OPEN_OPS for k in d)), sig)
            if any((key, k) in OPEN_OPS for k in sig):
                return self.st_small(depth)
        small = key in SMALL_EDGES_ONLY and not ALL_FAMILIES[0]
        for _ in range(4):
            # Mostly arguments on which the operation does not raise (found by running it in Python),
            # so most programs prove and run; a raising case now and then keeps the exceptions covered.
            lines: list[str] = []
            known: list[Any] = []
            args = [self.op_arg(kind, lines, small, known) for kind in sig]
            # A third of the raising cases are kept: a dropped exception obligation shows only on one.
            if UNKNOWN in known or not raises(op, sig, known) or self.ch.chance(0.35):
                break
        # Arguments evaluated once, into names, so an f-string template never nests quotes.
        names = []
        for a in args:
            if re.fullmatch(r"[a-z_][a-z0-9_]*", a) or a in ("None", "True", "False") or re.fullmatch(r"-?\d+", a):
                names.append(a)
            else:
                n = self.fresh("arg")
                lines.append(f"{n} = {a}")
                names.append(n)
        out = self.fresh("res")
        body = re.sub(r"\br\b", out, op.source(names)).replace("for x in", "for xx in").replace(
            "[x for xx", "[xx for xx").replace("r.append(x)", "r.append(xx)").replace(f"{out}.append(x)",
                                                                                      f"{out}.append(xx)")
        lines += body.split("\n")
        return lines + self.observe(out, result_kind(key, sig))

    def observe(self, name: str, kind: str) -> list[str]:
        """An effect that shows the value to a guarantee."""
        if kind == "bool":
            self.used.add("door")
            return [f"if {'not ' if self.ch.chance(0.5) else ''}{name}:", '    unlock("back")']
        if kind == "int":
            self.used.add("pay")
            if self.ch.chance(0.5):
                return [f"if 0 <= {name} <= 9:", f"    pay({name})"]
            self.used.add("door")
            return [f"if {name} == {self.ch.choice((0, 1, 2, 3, -1))}:", '    unlock("back")']
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
            self.used.add("door")
            return [f"if len({name}) == {self.ch.choice((0, 1, 2, 3))}:", '    unlock("back")']
        return []

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

    # ------------------------------------------------------------------ the families of issue 18

    def iterable(self) -> str:
        return self.ch.choice(("read_list('l')", "[]", "[1, 2, 3]", "range(0)", "range(1)", "range(3)",
                               "[x for x in read_list('l') if x > 5]", "[7]", "{1, 1}", "{'a': 1, 'a': 2}"))

    def st_zero_loop(self, depth: int) -> list[str]:
        """A name bound only inside a loop (or a branch of it), used after it (family 2)."""
        last = self.fresh("last")
        self.used.add("pay")
        body = self.ch.choice(([f"    {last} = vv"], ["    if vv > 2:", f"        {last} = vv"],
                               [f"    {last} = 1", "    break"]))
        return [f"for vv in {self.iterable()}:", *body, f"pay(0 if {last} else 1)"]

    def st_type_change(self, depth: int) -> list[str]:
        """A variable whose type changes on a later iteration (family 1)."""
        t = self.fresh("chg")
        self.used.add("send")
        self.used.add("pay")
        first, later = self.ch.choice((('"a"', "None"), ("1", '"x"'), ('"a"', "1"), ("[1]", '"s"'), ("0", "None")))
        use = self.ch.choice((f"send({t}, 1)", f"pay(len({t}))", f"pay({t} + 1)", f"send(str({t}), 1)"))
        return [f"{t} = {first}", f"for vv in range({self.ch.choice((2, 3))}):", f"    {use}",
                f"    {t} = {later}"]

    def st_none_flag(self, depth: int) -> list[str]:
        """An Optional from dict.get tested against None (a dropped None flag proves a door stays locked)."""
        d = self.fresh("od")
        o = self.fresh("opt")
        self.used.add("door")
        self.used.add("pay")
        items = self.ch.choice(('{"a": 1}', '{"a": 0, "b": 2}', "read_dict('d')", "{}"))
        test = self.ch.choice((f"{o} is None", f"{o} is not None", f"{o} == None", f"not {o}"))
        return [f"{d}: dict[str, int] = {items}", f"{o} = {d}.get({self.ch.choice(NAMES_Q)})", f"if {test}:",
                '    unlock("back")', f"if {o} is not None and {o} >= 0:", f"    pay({o} % 3)"]

    def st_enum_repeat(self, depth: int) -> list[str]:
        """enumerate over a set with repeats or a dict with overwritten keys (family 3)."""
        self.used.add("door")
        self.used.add("pay")
        it = self.ch.choice(("{3, 1, 3, 2}", "{1, 1}", "{2, 2, 2, 5}", '{"a": 1, "a": 2, "b": 3}', "set([1, 1, 2])",
                             '{"b": 1, "b": 2}', "read_list('l')", "[4, 4]"))
        i = self.fresh("ix")
        return [f"for {i}, vv in enumerate({it}{self.ch.choice(('', '', ', 1'))}):",
                f"    if {i} == {self.ch.choice((0, 1, 2, 3))}:", '        unlock("back")', f"    pay({i})"]

    def st_lookup(self, depth: int) -> list[str]:
        """An index or key that may miss, from a trusted result (IndexError, KeyError obligations)."""
        self.used.add("pay")
        if self.ch.chance(0.5):
            xs = self.ch.choice(("read_list('l')", "[1, 2, 3]", "[5]"))
            k = self.ch.choice(("-1", "-2", "-3", "-4", "0", "2", "read_int('k')", "-read_int('k')"))
            return [f"xs8 = {xs}", f"pay(xs8[{k}] % 3)"]
        d = self.ch.choice(("read_dict('d')", '{"a": 1}', '{"a": 1, "b": 2}'))
        k = self.ch.choice(('"a"', '"b"', "read_str('s')"))
        return [f"d8: dict[str, int] = {d}", f"pay(d8[{k}] % 3)"]

    def st_bad_order(self, depth: int) -> list[str]:
        """Ordering between sets, or between a tuple and a list (family 4)."""
        self.used.add("door")
        a, b = self.ch.choice((("{1}", "{1, 2}"), ("{1, 2}", "{2}"), ("(1, 2)", "[1, 2]"), ("set()", "{3}"),
                               ("[1]", "(1, 2)"), ("{1, 2}", "{2, 1}")))
        op = self.ch.choice(("<", "<=", ">", ">="))
        return [f"if {a} {op} {b}:", '    unlock("back")']

    def st_unhashable(self, depth: int) -> list[str]:
        """An unhashable value behind an object-typed element (family 5)."""
        xs = self.fresh("obj")
        self.used.add("pay")
        use = self.ch.choice((f"s9 = set({xs})", f"s9 = {{{xs}[1]: 1}}", f"s9 = {{{xs}[1]}}",
                              f"s9 = {{1}}\ns9.add({xs}[1])", f"s9 = {{'k': 1}}\ns9[{xs}[1]] = 2"))
        return [f"{xs} = [1, {self.ch.choice(('[2]', '{3: 4}', '{5}'))}]", *use.split("\n"), "pay(1)"]

    def st_fold_overflow(self, depth: int) -> list[str]:
        """A constant fold that must keep the general path's checks (family 6)."""
        self.used.add("note")
        e = self.ch.choice(("(1 << 1100) / 3", "float(1 << 1100)", "(1 << 1100) * 0.5", "round(1.5e308, -308)",
                            "(1 << 1100) + 0.5", "math.isinf(1 << 1100)", "1e308 * 10", "(1 << 1100) // 2.0",
                            "float(10 ** 400)", "round(1e300, -300)"))
        return [f"note(float({e}))"]


NAMES_Q = ('"a"', '"b"', '"z"')
UNKNOWN = object()


def raises(op: Any, sig: tuple[str, ...], values: list[Any]) -> bool:
    """Does the operation raise on these literal values (run in Python, as the interpreter would)?"""
    import contextlib
    import io
    import math

    from opdiff import py_value

    names = [f"v{k}" for k in range(len(values))]
    env: dict[str, Any] = {"math": math, **{n: py_value(k.rstrip("!"), v) for n, k, v in zip(names, sig, values,
                                                                                           strict=True)}}
    try:
        with contextlib.redirect_stdout(io.StringIO()):  # print() must not reach gen_check's output
            exec(op.source(names), env)  # the operation's own template on plain values
    except Exception:
        return True
    return False
FAMILY_STANZAS = ("zero_loop", "type_change", "none_flag", "enum_repeat", "enum_repeat", "bad_order", "unhashable",
                  "fold_overflow", "small", "small", "lookup", "lookup", "lookup")
