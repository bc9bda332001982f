"""Jointly unsatisfiable conditions of one effect (C3L013 postconditions, C3L014 preconditions).

Only simple int/bool/str comparisons are translated. A condition with any untranslatable part is
left out entirely; leaving conditions out only weakens the conjunction, so "unsatisfiable" stays
true of the full set. z3 is imported lazily, only when some condition is translatable.
"""

from __future__ import annotations

import ast
from typing import Any

from clauz3.layers._astutil import annotation_node
from clauz3.layers.errors import LayersError
from clauz3.layers.scan import Effect

_SCALAR_SORTS = {"int", "bool", "str"}
_COLLECTIONS = {"list", "set", "dict", "tuple"}


class _Untranslatable(LayersError):
    pass


def _type_name(raw: ast.expr | None) -> str | None:
    node = annotation_node(raw)
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in _COLLECTIONS:
        return "collection"
    return None


class _Translator:
    def __init__(self, z3: Any, types: dict[str, str]) -> None:
        self.z3 = z3
        self.types = types
        self.vars: dict[str, Any] = {}
        self.lengths: dict[str, Any] = {}

    def var(self, name: str) -> Any:
        t = self.types.get(name)
        if t not in _SCALAR_SORTS:
            raise _Untranslatable(name)
        if name not in self.vars:
            make = {"int": self.z3.Int, "bool": self.z3.Bool, "str": self.z3.String}[t]
            self.vars[name] = make(f"v_{name}")
        return self.vars[name]

    def length(self, node: ast.expr) -> Any:
        if isinstance(node, ast.Name) and self.types.get(node.id) == "collection":
            if node.id not in self.lengths:
                self.lengths[node.id] = self.z3.Int(f"len_{node.id}")
            return self.lengths[node.id]
        value = self.expr(node)
        if self.z3.is_string(value):
            return self.z3.Length(value)
        raise _Untranslatable("len")

    def expr(self, node: ast.expr) -> Any:
        z3 = self.z3
        if isinstance(node, ast.Constant):
            if isinstance(node.value, bool):
                return z3.BoolVal(node.value)
            if isinstance(node.value, int):
                return z3.IntVal(node.value)
            if isinstance(node.value, str):
                return z3.StringVal(node.value)
            raise _Untranslatable("constant")
        if isinstance(node, ast.Name):
            return self.var(node.id)
        if isinstance(node, ast.UnaryOp):
            operand = self.expr(node.operand)
            if isinstance(node.op, ast.Not) and z3.is_bool(operand):
                return z3.Not(operand)
            if isinstance(node.op, ast.USub) and z3.is_int(operand):
                return -operand
            raise _Untranslatable("unary")
        if isinstance(node, ast.BoolOp):
            values = [self.expr(v) for v in node.values]
            if not all(z3.is_bool(v) for v in values):
                raise _Untranslatable("boolop")
            return z3.And(*values) if isinstance(node.op, ast.And) else z3.Or(*values)
        if isinstance(node, ast.BinOp):
            left, right = self.expr(node.left), self.expr(node.right)
            if z3.is_int(left) and z3.is_int(right) and isinstance(node.op, ast.Add | ast.Sub | ast.Mult):
                return {ast.Add: left + right, ast.Sub: left - right, ast.Mult: left * right}[type(node.op)]
            if z3.is_string(left) and z3.is_string(right) and isinstance(node.op, ast.Add):
                return z3.Concat(left, right)
            raise _Untranslatable("binop")
        if isinstance(node, ast.Compare):
            parts = []
            left_node = node.left
            for op, right_node in zip(node.ops, node.comparators, strict=True):
                parts.append(self.compare(op, left_node, right_node))
                left_node = right_node
            return z3.And(*parts) if len(parts) > 1 else parts[0]
        if isinstance(node, ast.Call) and not node.keywords:
            if isinstance(node.func, ast.Name) and node.func.id == "len" and len(node.args) == 1:
                result = self.length(node.args[0])
                return result
            if isinstance(node.func, ast.Attribute) and node.func.attr in ("startswith", "endswith") and len(node.args) == 1:
                s, fix = self.expr(node.func.value), self.expr(node.args[0])
                if z3.is_string(s) and z3.is_string(fix):
                    return z3.PrefixOf(fix, s) if node.func.attr == "startswith" else z3.SuffixOf(fix, s)
        raise _Untranslatable(type(node).__name__)

    def compare(self, op: ast.cmpop, left_node: ast.expr, right_node: ast.expr) -> Any:
        z3 = self.z3
        if isinstance(op, ast.In | ast.NotIn):
            item = self.expr(left_node)
            if isinstance(right_node, ast.List | ast.Tuple | ast.Set):
                options = [self.expr(e) for e in right_node.elts]
                if not all(o.sort() == item.sort() for o in options):
                    raise _Untranslatable("in")
                found = z3.Or(*[item == o for o in options]) if options else z3.BoolVal(False)
            else:
                container = self.expr(right_node)
                if not (z3.is_string(item) and z3.is_string(container)):
                    raise _Untranslatable("in")
                found = z3.Contains(container, item)
            return z3.Not(found) if isinstance(op, ast.NotIn) else found
        left, right = self.expr(left_node), self.expr(right_node)
        if left.sort() != right.sort():
            raise _Untranslatable("sorts")
        if isinstance(op, ast.Eq):
            return left == right
        if isinstance(op, ast.NotEq):
            return left != right
        if not z3.is_int(left):
            raise _Untranslatable("order")
        return {ast.Lt: left < right, ast.LtE: left <= right, ast.Gt: left > right, ast.GtE: left >= right}[type(op)]


def unsatisfiable(effect: Effect, kind: str) -> bool:
    """True when the effect's ``kind`` conditions (``requires``/``ensures``) can never all hold.

    Postconditions are checked together with the preconditions, since a caller only ever reaches
    them after the preconditions held; callers check preconditions on their own first.
    """
    if not any(c.kind == kind for c in effect.conditions):
        return False
    kinds = ("requires", "ensures") if kind == "ensures" else ("requires",)
    conditions = [c for c in effect.conditions if c.kind in kinds and isinstance(c.predicate, ast.Lambda)]
    if not conditions:
        return False
    import z3

    types = {p.name: _type_name(p.annotation_node) or "?" for p in effect.params}
    if kind == "ensures":
        types["result"] = _type_name(effect.node.returns) or "?"
    tr = _Translator(z3, types)
    facts = []
    for cond in conditions:
        assert isinstance(cond.predicate, ast.Lambda)
        try:
            fact = tr.expr(cond.predicate.body)
        except (_Untranslatable, z3.Z3Exception):
            continue
        if z3.is_bool(fact):
            facts.append(fact)
    if not facts:
        return False
    solver = z3.Solver()
    solver.set("timeout", 2000)
    solver.add(*facts)
    solver.add(*[n >= 0 for n in tr.lengths.values()])
    return solver.check() == z3.unsat
