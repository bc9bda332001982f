"""Where a program meets a deliberate divergence from CPython, a ``note:`` at the construct (issue 18).

The checked subset means what clauz3's interpreter does (docs/semantics.md); where that differs
from what the Python reads (loops over a snapshot, fresh default arguments, NaN never found by
identity, set order, left-to-right ``sum``), the agent is told at the line, so a loop that appends to
the list it iterates learns that the appended items are not visited instead of seeing its program
silently do less. The texts are the operation table's ``divergence`` entries
(``clauz3.language.operations``). Notes never change a verdict: they ride with the warnings.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import fields, is_dataclass
from typing import Any

from clauz3.language import ir
from clauz3.language.operations import NAN_EQ, OPERATIONS

CODE = "python-differs"
GROWING = ("list.append", "list.extend", "set.add")


def _walk(node: Any) -> Iterator[Any]:
    """Every IR node under ``node`` (itself included), depth first in source order."""
    yield node
    if is_dataclass(node) and not isinstance(node, type):
        for f in fields(node):
            yield from _walk_value(getattr(node, f.name))


def _walk_value(value: Any) -> Iterator[Any]:
    if isinstance(value, (tuple, list)):
        for v in value:
            yield from _walk_value(v)
    elif is_dataclass(value) and not isinstance(value, type) and not isinstance(value, ir.Const):
        yield from _walk(value)


def _iterated_name(it: Any) -> str | None:
    """The local collection a loop iterates (``xs``, ``d.items()``, ``enumerate(xs)``)."""
    if isinstance(it, ir.Name):
        return it.id
    if isinstance(it, ir.MethodCall) and it.receiver == "dict" and isinstance(it.obj, ir.Name):
        return it.obj.id
    if isinstance(it, ir.BuiltinCall) and it.name == "enumerate" and it.args:
        return _iterated_name(it.args[0])
    return None


def _changes(body: tuple[Any, ...], name: str) -> tuple[bool, bool]:
    """(grows, changes) of ``name`` inside ``body``: an append/extend/add, or any item assignment."""
    grows = changes = False
    for stmt in body:
        for node in _walk(stmt):
            if isinstance(node, ir.MethodCall) and isinstance(node.obj, ir.Name) and node.obj.id == name \
                    and f"{node.receiver}.{node.method}" in GROWING:
                grows = changes = True
            elif isinstance(node, ir.SetItem) and node.name == name:
                changes = True
    return grows, changes


def _kind(t: Any) -> str:
    return "list" if isinstance(t, ir.TList) else "set" if isinstance(t, ir.TSet) else \
        "dict" if isinstance(t, ir.TDict) else "collection"


def notes(program: ir.CheckedProgram) -> list[ir.Diagnostic]:
    out: dict[tuple[str, int, int, str], ir.Diagnostic] = {}

    def note(file: str, line: int, col: int, message: str) -> None:
        out.setdefault((file, line, col, message), ir.Diagnostic("note", file, line, col, CODE, message))

    for fn in program.functions.values():
        if fn.origin != "entry":
            continue
        file = fn.file or program.path
        for p in fn.params:
            if p.default is not None and p.default.kind in ("list", "dict", "set"):
                note(file, fn.line, 1, f"each call that omits `{p.name}` gets a fresh copy of its default "
                                       f"(CPython shares one {p.default.kind} between calls)")
        for stmt in fn.body:
            for node in _walk(stmt):
                _note_node(node, file, note)
    return sorted(out.values(), key=lambda d: (d.line, d.col, d.message))


def _note_node(node: Any, file: str, note: Any) -> None:
    if isinstance(node, ir.For):
        name = _iterated_name(node.iter)
        if name is not None:
            grows, changes = _changes(node.body, name)
            kind = _kind(getattr(node.iter, "type", None)) if isinstance(node.iter, ir.Name) else "collection"
            if grows:
                note(file, node.line, node.col, f"the loop visits the {kind} `{name}` as it was when the loop "
                                                f"began; items appended inside it are not visited")
            elif changes:
                note(file, node.line, node.col, f"the loop visits the {kind} `{name}` as it was when the loop "
                                                f"began; changes made inside it are not seen by the loop")
    iterated = None
    if isinstance(node, (ir.For, ir.ListComp)):
        iterated = node.iter
        if isinstance(iterated, ir.BuiltinCall) and iterated.name == "enumerate" and iterated.args:
            iterated = iterated.args[0]
    elif isinstance(node, ir.BuiltinCall) and node.name in ("list", "tuple", "min", "max", "sum", "enumerate") \
            and node.args:
        iterated = node.args[0]
    if iterated is not None and isinstance(getattr(iterated, "type", None), ir.TSet):
        note(file, node.line, node.col, OPERATIONS["set"].divergence)
    if isinstance(node, ir.BuiltinCall) and node.name == "sum" and node.args:
        elem = getattr(node.args[0].type, "elem", None)
        if elem == ir.FLOAT:
            note(file, node.line, node.col, OPERATIONS["sum"].divergence)
    if isinstance(node, ir.Compare):
        operands = [node.left, *node.comparators]
        for k, op in enumerate(node.ops):
            if op in ("in", "not_in") and operands[k].type == ir.FLOAT and not isinstance(operands[k + 1].type,
                                                                                          ir.TDict):
                note(file, node.line, node.col, NAN_EQ)
    if isinstance(node, ir.MethodCall) and node.method in ("count", "index") and node.receiver in ("list", "tuple") \
            and node.args and node.args[0].type == ir.FLOAT:
        note(file, node.line, node.col, NAN_EQ)
