"""Type-directed sampling for differential testing (01 DIF-2).

Values come from one ``random.Random`` (never hash order): boundary cases (0, ±1, empty and
64-character strings, non-BMP characters, maximum lengths, repeated list elements and rows, NaN, ±inf,
2**53 + 1), the program's own literals (and their
neighbours, so branches like ``if owed > 500`` are reached both ways), and random values.
"""

from __future__ import annotations

import random
from dataclasses import fields, is_dataclass
from typing import Any

from clauz3.language import ir

INT_EDGES = (0, 1, -1, 2, -2, 7, 100, -100, 255, 1000, 2**31 - 1, -(2**31), 2**63, -(2**63) - 1, 10**20,
             2**53 + 1, -(2**53) - 1)
# NaN and the infinities are floats a trusted result may hold (issue 10 family 5).
FLOAT_EDGES = (0.0, -0.0, 1.0, -1.0, 0.5, 0.1, 1e-300, 1e300, 2.5, -3.75, float("nan"), float("inf"),
               float("-inf"), 9007199254740992.0, 5e-324)
STR_EDGES = ("", "x" * 64, "😀", "a", "a😀b", "bob@example.com", "a@b", "..", "../x", "/", " ", "\t\n", "é", "0",
             "ab/cd", "%2e%2e")
ALPHABET = "abcxyz019 @./-_ÄЖ😀\U0001f680ßİﬁ"


def program_literals(program: ir.CheckedProgram) -> tuple[list[int], list[str], list[float]]:
    """Int, str and float literals anywhere in the checked program (deterministic order)."""
    ints: set[int] = set()
    strs: set[str] = set()
    floats: set[float] = set()
    seen: set[int] = set()

    def walk(node: Any) -> None:
        if id(node) in seen:
            return
        seen.add(id(node))
        if isinstance(node, ir.Const):
            v = node.value
            if isinstance(v, bool):
                return
            if isinstance(v, int):
                ints.update((v - 1, v, v + 1))
            elif isinstance(v, float):
                floats.add(v)
            elif isinstance(v, str) and len(v) <= 256:
                strs.add(v)
            elif isinstance(v, tuple):
                for item in v:
                    walk(item) if isinstance(item, ir.Const) else walk(ir.Const(item, ir.OBJECT, 0, 0))
            return
        if is_dataclass(node) and not isinstance(node, type):
            for f in fields(node):
                walk(getattr(node, f.name))
        elif isinstance(node, dict):
            for k, v in node.items():
                walk(k)
                walk(v)
        elif isinstance(node, (tuple, list)):
            for v in node:
                walk(v)

    walk(program)
    return sorted(ints), sorted(strs), sorted(floats, key=repr)


class Sampler:
    def __init__(self, rng: random.Random, program: ir.CheckedProgram, max_rows: int,
                 literals: tuple[list[int], list[str], list[float]] | None = None) -> None:
        self.rng = rng
        self.program = program
        self.max_rows = max_rows
        # Walking the IR costs more than a short run: callers running one program many times pass it once.
        self.ints, self.strs, self.floats = literals if literals is not None else program_literals(program)

    def _pick(self, edges: tuple[Any, ...], literals: list[Any]) -> Any:
        # The first three edges are the sharpest boundaries (0, 1, -1 / "", 64 chars, non-BMP).
        r = self.rng.random()
        if r < 0.25:
            return self.rng.choice(edges[:3])
        if literals and r < 0.5:
            return self.rng.choice(literals)
        if r < 0.8:
            return self.rng.choice(edges)
        return None

    def int_(self) -> int:
        v = self._pick(INT_EDGES, self.ints)
        return v if v is not None else self.rng.randint(-1000, 1000)

    def float_(self) -> float:
        v = self._pick(FLOAT_EDGES, self.floats)
        return v if v is not None else self.rng.uniform(-1e6, 1e6)

    def str_(self) -> str:
        v = self._pick(STR_EDGES, self.strs)
        if v is not None:
            return v
        n = self.rng.choice((1, 2, 3, 8, 64))
        return "".join(self.rng.choice(ALPHABET) for _ in range(n))

    def length(self) -> int:
        r = self.rng.random()
        if r < 0.15:
            return 0
        if r < 0.55:
            return self.max_rows
        return self.rng.randint(0, self.max_rows)

    def value(self, t: Any, row_class: Any = None) -> Any:
        if isinstance(t, ir.TScalar):
            if t.name == "None":
                return None
            if t.name == "bool":
                return self.rng.random() < 0.5
            if t.name == "int":
                return self.int_()
            if t.name == "float":
                return self.float_()
            return self.str_()
        if isinstance(t, ir.TOptional):
            return None if self.rng.random() < 0.25 else self.value(t.inner, row_class)
        if isinstance(t, ir.TList):
            items = [self.value(t.elem, row_class) for _ in range(self.length())]
            if len(items) > 1 and self.rng.random() < 0.25:
                # A repeated element (for rows: the same row twice), a boundary proofs must allow.
                items[self.rng.randrange(1, len(items))] = items[0]
            return items
        if isinstance(t, ir.TSet):
            return {self.value(t.elem, row_class) for _ in range(self.length())}
        if isinstance(t, ir.TTuple):
            if t.elems is not None:
                return tuple(self.value(e, row_class) for e in t.elems)
            return tuple(self.value(t.elem, row_class) for _ in range(self.length()))
        if isinstance(t, ir.TDict):
            return {self.value(t.key): self.value(t.value) for _ in range(self.length())}
        if isinstance(t, ir.TRow):
            return self.row(t.schema, row_class)
        if isinstance(t, ir.TObject):
            return self.value(self.rng.choice((ir.INT, ir.STR, ir.BOOL, ir.NONE)))
        raise TypeError(f"cannot sample {t!r}")

    def row(self, schema: str, row_class: Any) -> Any:
        decl = self.program.rows.get(schema)
        if decl is None or row_class is None:
            raise TypeError(f"cannot sample rows of {schema}")
        return row_class(**{name: self.value(t) for name, t in decl.fields})
