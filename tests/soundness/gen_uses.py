"""Stanzas that bind a value, change it, then use it (issue 10's families), mixed into ``generator.Builder``:
a second name for a list through some expression, a list inside a container, a contact's address
through some expression (only an unchanged field keeps its provenance), dict views, sets, NaN and
values merged from branches, each then observed by an effect a guarantee watches.
"""

from __future__ import annotations

from typing import Any


class Uses:
    """Mixed into ``generator.Builder`` (which supplies the names and statements used here)."""

    ch: Any
    used: set[str]
    pool: dict[str, list[str]]

    def fresh(self, kind: str) -> str: ...  # Builder's

    def bind(self, name: str, kind: str) -> None: ...  # Builder's

    def var(self, kind: str) -> str | None: ...  # Builder's

    def st_slist(self, depth: int) -> list[str]: ...  # Builder's

    def st_alias(self, depth: int) -> list[str]: ...  # Builder's

    def st_sdict(self, depth: int) -> list[str]: ...  # Builder's

    def st_set(self, depth: int) -> list[str]: ...  # Builder's

    def st_merge(self, depth: int) -> list[str]: ...  # Builder's

    def st_alias_use(self, depth: int) -> list[str]:
        """Bind a second name through some expression, mutate one name, send through the other."""
        lines = self.st_slist(depth) if self.ch.chance(0.6) or not self.var("slist") else []
        xs = self.pool["slist"][-1]
        lines += self.st_alias(depth)
        ys = self.pool["slist"][-1]
        if ys == xs:
            return lines
        changed, other = (xs, ys) if self.ch.chance(0.7) else (ys, xs)
        lines.append(self.ch.choice((f'{changed}.append("evil")', f'{changed}[0] = "evil"',
                                     f'{changed}.extend(["evil"])')))
        self.used.add("send")
        self.used.add("pay")
        lines.append(self.ch.choice((f"send({other}[-1], 1)", f"send({other}[0], 1)", f"pay(len({other}))",
                                     f"for vv in {other}:\n    send(vv, 1)")))
        return [part for line in lines for part in line.split("\n")]

    def st_nested(self, depth: int) -> list[str]:
        """A list stored in a container, the list changed afterwards, then read through the container."""
        lines = self.st_slist(depth)
        xs = self.pool["slist"][-1]
        c = self.fresh("nest")
        holder, read = self.ch.choice(((f'{{"k": {xs}}}', f'{c}["k"]'), (f"[{xs}, {xs}]", f"{c}[1]"),
                                       (f"({xs}, 1)", f"{c}[0]"), (f'{{"k": [{xs}]}}', f'{c}["k"][0]')))
        lines.append(f"{c} = {holder}")
        lines.append(self.ch.choice((f'{xs}.append("evil")', f'{xs}[0] = "evil"', f'{read}.append("evil")')))
        self.used.add("send")
        self.used.add("pay")
        return [*lines, self.ch.choice((f"send({read}[-1], 1)", f"pay(len({read}))", f"send({xs}[-1], 1)"))]

    def st_rows(self, depth: int) -> list[str]:
        """Send a contact's address through some expression: only an unchanged field keeps its provenance."""
        self.used.add("rows")
        self.used.add("send")

        def through(v: str, flag: str) -> str:
            return self.ch.choice((
                v, v, f"{v} + ''", f"{v}.strip()", f"{v} if {flag} else 'a'", f"ident({v})", f"pick({flag}, {v}, {v})",
                f"{v} or 'a'", f"{v} and {v}", f"{{'k': {v}}}['k']", f"[{v}][0]", f"({v}, 1)[0]", f"f'{{{v}}}'",
                f"str({v})", f"{v}[0:]", f"max({v}, {v})", f"{v}.lower()", f"{v}.replace('x', 'x')",
                f"first_or([{v}], 'a')", f"{{'k': {v}}}.get('k', 'a')"))

        if self.ch.chance(0.5):
            return ["for c in contacts():", f"    if {self.ch.choice(('c.vip', 'True', 'not c.vip'))}:",
                    f"        send({through('c.email', 'c.vip')}, 1)"]
        rows = self.fresh("rows")
        e = self.fresh("str")
        return [f"{rows} = contacts()", f"if len({rows}) > {self.ch.choice(('0', '1'))}:",
                f"    {e} = {through(rows + '[0].email', rows + '[0].vip')}", f"    send({e}, 1)"]

    def st_view_use(self, depth: int) -> list[str]:
        lines = self.st_sdict(depth)
        d = self.pool["sdict"][-1]
        v = self.fresh("view")
        view = self.ch.choice(("keys", "values", "items"))
        lines.append(f"{v} = {d}.{view}()")
        lines.append(self.ch.choice((f'{d}["evil"] = "evil"', f'{d}["a"] = "evil"')))
        self.used.add("send")
        self.used.add("pay")
        loop = "for kk, vv in" if view == "items" else "for vv in"
        use = self.ch.choice(("send(vv, 1)", "send(kk, 1)")) if view == "items" else "send(vv, 1)"
        return [*lines, *self.ch.choice(([f"{loop} {v}:", f"    {use}"], [f"pay(len({v}))"]))]

    def st_set_use(self, depth: int) -> list[str]:
        lines = self.st_set(depth)
        s = self.pool["set"][-1]
        self.used.add("pay")
        return [*lines, *self.ch.choice(([f"for vv in {s}:", "    pay(vv)", "    break"],
                                        [f"pay(list({s})[0])"], [f"pay(first_or(list({s}), 0))"],
                                        [f"for vv in {s}:", "    pay(vv)"]))]

    def st_nan_use(self, depth: int) -> list[str]:
        n = self.fresh("float")
        self.bind(n, "float")
        source = self.ch.choice(("float('nan')", "read_float('f')", "math.inf - math.inf"))
        lines = [f"{n} = {source}"]
        test = self.ch.choice((f"{n} in [{n}]", f"len({{{n}, {n}}}) == 1", f"{n} in {{{n}}}", f"[{n}] == [{n}]",
                               f"{n} in [{n}, 1.0]", f"({n},) == ({n},)", f"{{'k': {n}}} == {{'k': {n}}}"))
        self.used.add("pay")
        self.used.add("note")
        return [*lines, f"if {test}:", f"    {self.ch.choice(('pay(5)', f'note({n})'))}"]

    def st_merge_use(self, depth: int) -> list[str]:
        lines = self.st_merge(depth)
        m = self.pool["merged"][-1]
        self.used.add("send")
        return [*lines, self.ch.choice((f"send(str({m}), 1)", f'send(f"{{{m}}}", 1)', f"send(str({m} + 0), 1)",
                                        f"send(str({m} == 9007199254740992), 1)"))]

