"""The families of issue 18 as generator stanzas (mixed into ``generator.Builder``), in two forms.

* In ordinary programs, the form a sound checker accepts and a sound prover proves, with the value
  it computes known to the generator (worked out here with clauz3's semantics: sets in insertion
  order, a dict's overwritten key keeping its first place and its last value) and tested exactly by
  a trap (``Stanzas.trap``): a loop that surely runs binding a name used after it, a name whose type
  widens on a later iteration, an Optional from ``dict.get`` tested against None, ``enumerate`` over a
  set display with repeats and a dict display with overwritten keys, and a raising constant fold.
* As *probes* (``Families.probe``): a small program of one statement that a sound checker refuses
  (issue 18: a name bound only on some paths, a type a later iteration breaks, an unhashable value
  behind an ``object`` element, an ordering between sets or a tuple and a list). The program says so
  (``Program.expect == "refuse"``) and ``gen_check`` reports a checker that accepts it: the prover
  behind it may still refuse the program (defence in depth), but the checker's over-approximation,
  which every later fact rests on, has a hole.
"""

from __future__ import annotations

from typing import Any

NAMES_Q = ('"a"', '"b"', '"z"')
# Statement kinds of ordinary programs (generator.Builder.statement draws among them).
FAMILY_STANZAS = ("zero_loop", "type_change", "none_flag", "enum_repeat", "enum_repeat", "small", "small",
                  "lookup", "lookup", "lookup", "fold", "branch_mut", "branch_mut", "branch_mut", "branch_mut",
                  "edge_arith", "edge_arith", "edge_arith", "sym_keys", "sym_keys", "sym_keys")
# (int, float) pairs where the float cannot hold the int exactly, or only just can.
NEAR = ((2**53 + 1, 2.0**53), (2**53, 2.0**53), (2**53 - 1, 2.0**53), (2**53 + 1, 2.0**53 + 2),
        (-(2**53) - 1, -(2.0**53)), (10**30, 1e30), (2**63, 2.0**63), (2**63 + 1, 2.0**63), (3, 3.0))
SIGNED = (7, -7, 1, -1, 0, 5, -5, 2**53 + 1, -(2**53) - 1)
DIVISORS = (2, -2, 3, -3, -7, 7, -1)


def order(items: tuple[Any, ...]) -> list[Any]:
    """A set display's elements as clauz3 iterates them: first occurrences, in source order."""
    return list(dict.fromkeys(items))


# Iterables whose items the generator knows (source, the items in clauz3's order), and ones that may be empty.
SURE = (("[1, 2, 3]", [1, 2, 3]), ("range(1)", [0]), ("range(3)", [0, 1, 2]), ("[7]", [7]),
        ("{1, 1}", [1]), ("{3, 1, 3, 2}", order((3, 1, 3, 2))), ("{'a': 1, 'a': 2}", ["a"]),
        ("{'b': 1, 'a': 2, 'b': 3}", ["b", "a"]), ("[4, 4]", [4, 4]), ("'ab'", ["a", "b"]))
MAYBE_EMPTY = ("read_list('l')", "[]", "range(0)", "[x for x in [1, 2] if x > 5]", "read_strs('s')",
               "read_set('s')", "read_dict('d')", "''")


class Families:
    """Mixed into ``generator.Builder`` (which supplies ``ch``, ``fresh``, ``used``, ``trap``, ``watch``)."""

    ch: Any
    used: set[str]
    traps: list[str]

    def fresh(self, kind: str) -> str: ...  # Builder's

    def trap(self, cond: str) -> list[str]: ...  # Stanzas'

    def watch(self, cond: str) -> list[str]: ...  # Stanzas'

    # ------------------------------------------------------------------ accepted forms, values known

    def st_zero_loop(self, depth: int) -> list[str]:
        """A name bound in a loop that surely runs, used after it (family 2: bound on every path)."""
        last = self.fresh("last")
        src, items = self.ch.choice(SURE)
        # (A `break` would leave it unbound on the checker's reading: only the loop's lower bound counts.)
        if self.ch.chance(0.4):  # bound before the loop too, so a `continue` may skip the binding
            kept = [v for v in items if v != items[0]]
            value = kept[-1] if kept else type(items[0])()
            return [f"{last} = {type(items[0])()!r}", f"for vv in {src}:", f"    if vv == {items[0]!r}:",
                    "        continue", f"    {last} = vv", *self.trap(f"{last} == {value!r}")]
        return [f"for vv in {src}:", f"    {last} = vv", *self.trap(f"{last} == {items[-1]!r}")]

    def st_type_change(self, depth: int) -> list[str]:
        """A name whose type widens on a later iteration (int to float, bool to int), used in a way every
        type allows (family 1: the body is checked again with the wider type). A name that changes kind
        (str to None, int to str) is a probe: the checker refuses it (``probe``)."""
        t, acc = self.fresh("chg"), self.fresh("acc")
        first, later, values = self.ch.choice((("1", "2.5", (1, 2.5)), ("True", "3", (True, 3)),
                                               ("0", "0.5", (0, 0.5)), ("False", "1.5", (False, 1.5))))
        n = self.ch.choice((2, 3))
        total: float = 0
        for v in [values[0]] + [values[1]] * (n - 1):
            total = total + v
        return [f"{t} = {first}", f"{acc} = 0", f"for vv in range({n}):", f"    {acc} = {acc} + {t}",
                f"    {t} = {later}", *self.trap(f"{acc} == {total!r}")]

    def st_none_flag(self, depth: int) -> list[str]:
        """An Optional from dict.get tested against None (a dropped None flag proves the wrong branch)."""
        d, o = self.fresh("od"), self.fresh("opt")
        self.used.add("pay")
        items, known = self.ch.choice((('{"a": 1}', {"a": 1}), ('{"a": 0, "b": 2}', {"a": 0, "b": 2}),
                                       ("read_dict('d')", None), ("{}", {}), ('{"b": 5, "b": 0}', {"b": 0})))
        key = self.ch.choice(NAMES_Q)
        lines = [f"{d}: dict[str, int] = {items}", f"{o} = {d}.get({key})"]
        test = self.ch.choice((f"{o} is None", f"{o} is not None", f"{o} == None", f"not {o}"))
        if known is None:
            lines += self.watch(test)
        else:
            value = known.get(key.strip('"'))
            truth = {f"{o} is None": value is None, f"{o} is not None": value is not None,
                     f"{o} == None": value is None, f"not {o}": not value}[test]
            lines += self.trap(test if truth else f"not ({test})")
        if known == {}:  # always None: the prover refuses an ordering on a value that is only None
            return lines
        return [*lines, f"if {o} is not None and {o} >= 0:", f"    pay({o} % 3)"]

    def st_enum_repeat(self, depth: int) -> list[str]:
        """enumerate over a set with repeats or a dict with overwritten keys (family 3): every index known."""
        self.used.add("pay")
        src, items = self.ch.choice((("{3, 1, 3, 2}", order((3, 1, 3, 2))), ("{1, 1}", [1]),
                                     ("{2, 2, 2, 5}", order((2, 2, 2, 5))), ('{"a": 1, "a": 2, "b": 3}', ["a", "b"]),
                                     ("set([1, 1, 2])", [1, 2]), ('{"b": 1, "b": 2}', ["b"]), ("[4, 4]", [4, 4]),
                                     ("range(2)", [0, 1])))
        start = self.ch.choice((0, 0, 1))
        i, seen = self.fresh("ix"), self.fresh("seen")
        head = f"for {i}, vv in enumerate({src}{f', {start}' if start else ''}):"
        expected = [start + k for k in range(len(items))]
        return [f"{seen}: list[int] = []", head, f"    {seen}.append({i})", f"    pay({i})",
                *self.trap(f"{seen} == {expected!r}")]

    def st_branch_mut(self, depth: int) -> list[str]:
        """A mutation under a condition on a trusted result (a statement branch, or inside an expression:
        a conditional expression, `and`/`or`, a comprehension's filter), then the collection tested
        separately on each side of the condition: the generator knows both outcomes, so each side's trap
        holds on every run that takes it (one trap over both sides would let a wrong model hide)."""
        c, xs = self.fresh("flag"), self.fresh("bm")
        cond = self.ch.choice(("read_flag('b')", "read_int('k') > 4", "len(read_str('s')) == 2", "read_flag('c')"))
        form = self.ch.choice(("list", "list", "list", "set", "dict"))
        if form == "list":
            init, base = f"{xs} = [1, 2]", [1, 2]
            mut, after = self.ch.choice(((f"{xs}.append(7)", [1, 2, 7]), (f"{xs}.append(7)", [1, 2, 7]),
                                         (f"{xs}.extend([7, 8])", [1, 2, 7, 8]), (f"{xs}[0] = 7", [7, 2])))
            other, otherwise = self.ch.choice(((None, base), (f"{xs}.append(9)", [1, 2, 9])))
            how = self.ch.choice(("if", "ifexp", "and", "or", "comp")) if mut.endswith("append(7)") else "if"
            if how == "ifexp":
                other, otherwise = None, base
                body = [f"{mut} if {c} else None"]
            elif how == "and":
                other, otherwise = None, base
                body = [f"{c} and {mut}"]
            elif how == "or":
                other, otherwise = None, base
                body = [f"{self.fresh('or')} = (not {c}) or {mut}"]
            elif how == "comp":
                other, otherwise = None, base
                body = [f"{self.fresh('cmp')} = [{xs}.append(v) for v in [7] if {c}]"]
            else:
                body = [f"if {c}:", f"    {mut}", *(["else:", f"    {other}"] if other else [])]

            def test(v: list[int]) -> str:
                return f"len({xs}) == {len(v)} and {xs}[-1] == {v[-1]} and {xs}[0] == {v[0]}"

            yes, no = test(after), test(otherwise)
        elif form == "set":
            init = f"{xs} = {{1, 2}}"
            mut, n1 = self.ch.choice(((f"{xs}.add(7)", 3), (f"{xs}.add(1)", 2)))
            body = [f"if {c}:", f"    {mut}"]
            yes, no = f"len({xs}) == {n1} and 2 in {xs}", f"len({xs}) == 2 and 7 not in {xs}"
        else:
            init = f'{xs} = {{"a": 1}}'
            mut, n1, a = self.ch.choice(((f'{xs}["b"] = 7', 2, 1), (f'{xs}["a"] = 7', 1, 7)))
            body = [f"if {c}:", f"    {mut}"]
            yes, no = f'len({xs}) == {n1} and {xs}["a"] == {a}', f'len({xs}) == 1 and {xs}["a"] == 1'
        return [f"{c} = {cond}", init, *body, f"if {c}:", *("    " + x for x in self.trap(yes)), "else:",
                *("    " + x for x in self.trap(no))]

    def st_edge_arith(self, depth: int) -> list[str]:
        """Edges of number semantics, on literals, each result trapped: an int against a float where the
        float is inexact, and floor division and modulo with the signs mixed (Python rounds down)."""
        a, b, r = self.fresh("ea"), self.fresh("eb"), self.fresh("er")
        if self.ch.chance(0.5):
            i, f = self.ch.choice(NEAR)
            op = self.ch.choice(("==", "!=", "==", "!=", "<", "<=", ">", ">="))
            x, y = (i, f) if self.ch.chance(0.5) else (f, i)
            value = {"==": x == y, "!=": x != y, "<": x < y, "<=": x <= y, ">": x > y, ">=": x >= y}[op]
            kx, ky = ("int", "float") if isinstance(x, int) else ("float", "int")
            return [f"{a}: {kx} = {x!r}", f"{b}: {ky} = {y!r}", f"{r} = {a} {op} {b}",
                    *self.trap(f"str({r}) == {str(value)!r}")]
        x, y = self.ch.choice(SIGNED), self.ch.choice(DIVISORS)
        op = self.ch.choice(("//", "%"))
        value = x // y if op == "//" else x % y
        return [f"{a}: int = {x}", f"{b}: int = {y}", f"{r} = {a} {op} {b}", *self.trap(f"{r} == {value}")]

    def st_sym_keys(self, depth: int) -> list[str]:
        """A set or dict display whose elements or keys come from trusted results, so they may repeat: the
        size and the lookup tested separately on each side of whether they are equal."""
        x, y, s = self.fresh("kx"), self.fresh("ky"), self.fresh("sk")
        if self.ch.chance(0.5):
            reads = self.ch.choice((("read_int('k')", "read_int('j')"), ("read_int('k')", "1"), ("read_str('s')", "'a'")))
            lines = [f"{x} = {reads[0]}", f"{y} = {reads[1]}", f"{s} = {{{x}, {y}, {x}}}"]
            same, differ = f"len({s}) == 1", f"len({s}) == 2"
        else:
            reads = self.ch.choice((("read_str('s')", "'a'"), ("read_str('s')", "read_str('t')")))
            lines = [f"{x} = {reads[0]}", f"{y} = {reads[1]}", f"{s} = {{{x}: 1, {y}: 2}}"]
            same, differ = f"len({s}) == 1 and {s}[{x}] == 2", f"len({s}) == 2 and {s}[{x}] == 1 and {s}[{y}] == 2"
        return [*lines, f"if {x} == {y}:", *("    " + v for v in self.trap(same)), "else:",
                *("    " + v for v in self.trap(differ))]

    def st_lookup(self, depth: int) -> list[str]:
        """An index or key that may miss, from a trusted result (IndexError, KeyError obligations)."""
        self.used.add("pay")
        if self.ch.chance(0.5):
            xs = self.ch.choice(("read_list('l')", "[1, 2, 3]", "[5]"))
            k = self.ch.choice(("-1", "-2", "-3", "-4", "0", "2", "3", "read_int('k')", "-read_int('k')"))
            return [f"xs8 = {xs}", f"pay(xs8[{k}] % 3)"]
        d = self.ch.choice(("read_dict('d')", '{"a": 1}', '{"a": 1, "b": 2}'))
        k = self.ch.choice(('"a"', '"b"', "read_str('s')"))
        return [f"d8: dict[str, int] = {d}", f"pay(d8[{k}] % 3)"]

    def st_fold(self, depth: int) -> list[str]:
        """A constant fold that must keep the general path's checks (family 6); most raise OverflowError,
        so the program is not proved unless the prover drops the check (and then its run raises)."""
        self.used.add("note")
        e = self.ch.choice(("(1 << 1100) / 3", "float(1 << 1100)", "(1 << 1100) * 0.5", "round(1.5e308, -308)",
                            "(1 << 1100) + 0.5", "math.isinf(1 << 1100)", "1e308 * 10", "(1 << 1100) // 2.0",
                            "float(10 ** 400)", "round(1e300, -300)", "(1 << 1100) - 1.0", "2.0 ** 2000"))
        return [f"note(float({e}))"]

    # ------------------------------------------------------------------ probes: a sound checker refuses

    def probe(self) -> list[str]:
        """One statement a sound checker refuses (``Program.expect == "refuse"``)."""
        self.used.add("pay")
        kind = self.ch.choice(("zero_loop", "zero_loop", "branch", "type_change", "type_change", "chain",
                               "unhashable", "unhashable", "bad_order"))
        if kind == "zero_loop":  # family 2: bound only inside a loop that may run zero times
            last = self.fresh("last")
            body = self.ch.choice(([f"    {last} = vv"], [f"    {last} = 1", "    break"],
                                   ["    if vv:", f"        {last} = vv"]))
            use = self.ch.choice((f"pay(0 if {last} else 1)", f"send(str({last}), 1)", f"{last} = {last}"))
            self.used.add("send")
            return [f"for vv in {self.ch.choice(MAYBE_EMPTY)}:", *body, use]
        if kind == "branch":  # bound on one branch only
            z = self.fresh("z")
            cond = self.ch.choice(("read_flag('b')", "read_int('k') > 3", "len(read_list('l')) == 0"))
            other = self.ch.choice(([], ["else:", "    pass"], ["elif read_flag('c'):", f"    {z} = 2"]))
            return [f"if {cond}:", f"    {z} = 1", *other, f"pay({z})"]
        if kind in ("type_change", "chain"):  # family 1: a later iteration hands the body a type it breaks on
            self.used.add("send")
            t = self.fresh("chg")
            if kind == "chain":  # the third name gets None only on the third iteration
                a, b = self.fresh("ca"), self.fresh("cb")
                return [f"{a} = 'x'", f"{b} = 'y'", f"{t} = 'z'", "for vv in range(4):", f"    send({t}, 1)",
                        f"    {t} = {b}", f"    {b} = {a}", f"    {a} = None"]
            first, later, use = self.ch.choice((
                ('"a"', "None", f"send({t}, 1)"), ("1", '"x"', f"pay({t} + 1)"), ('"a"', "1", f"pay(len({t}))"),
                ("[1]", "5", f"pay(len({t}))"), ("0", "None", f"pay({t} + 1)"), ('"ab"', "None", f"send({t}.upper(), 1)"),
                ("2", '"s"', f"pay({t} % 2)")))
            return [f"{t} = {first}", f"for vv in range({self.ch.choice((2, 3))}):", f"    {use}", f"    {t} = {later}"]
        if kind == "unhashable":  # family 5: an unhashable value behind an object element
            xs = self.fresh("obj")
            use = self.ch.choice((f"s9 = set({xs})", f"s9 = {{{xs}[1]: 1}}", f"s9 = {{{xs}[1]}}",
                                  f"s9 = {{1}}\ns9.add({xs}[1])", f"s9 = {{'k': 1}}\ns9[{xs}[1]] = 2",
                                  f"s9 = {{{xs}[0], {xs}[1]}}"))
            return [f"{xs} = [1, {self.ch.choice(('[2]', '{3: 4}', '{5}'))}]", *use.split("\n"), "pay(1)"]
        a, b = self.ch.choice((("{1}", "{1, 2}"), ("{1, 2}", "{2}"), ("(1, 2)", "[1, 2]"), ("set()", "{3}"),
                               ("[1]", "(1, 2)"), ("{1, 2}", "{2, 1}"), ("read_set('s')", "{1}")))
        return [f"if {a} {self.ch.choice(('<', '<=', '>', '>='))} {b}:", "    pay(1)"]  # family 4
