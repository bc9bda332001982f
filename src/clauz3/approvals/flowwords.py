"""Plain words for a flow contract the library left without a description (issue 20), read from its AST.

The authority never imports trusted code (LIFE-5), so a contract helper whose body ends in
``return flows.never(from_=get_webpage, into=effect(send_direct_message).body)`` is read as a tree:
"Nothing read by get_webpage reaches send_direct_message's body." Anything else gives None (the card
then says the library gave no description, as for any other helper).
"""

from __future__ import annotations

import ast


def _name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.rsplit(".", 1)[-1]
    return None


def _items(node: ast.expr) -> list[ast.expr]:
    return list(node.elts) if isinstance(node, ast.List | ast.Tuple) else [node]


def _sink(node: ast.expr) -> str | None:
    """``effect(E).p`` → ``E's p``."""
    if not (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Call)):
        return None
    call = node.value
    if _name(call.func) != "effect" or len(call.args) != 1 or call.keywords:
        return None
    target = _name(call.args[0])
    return f"{target}'s {node.attr}" if target else None


def _or(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def flow_words(fn: ast.FunctionDef) -> str | None:
    """The sentence for a parameterless helper that returns ``flows.never``/``flows.only`` directly."""
    if fn.args.args or fn.args.kwonlyargs or fn.args.vararg or fn.args.kwarg or not fn.body:
        return None
    last = fn.body[-1]
    if not (isinstance(last, ast.Return) and isinstance(last.value, ast.Call)):
        return None
    call = last.value
    if not (isinstance(call.func, ast.Attribute) and _name(call.func.value) == "flows"
            and call.func.attr in ("never", "only")) or call.args:
        return None
    kw = {k.arg: k.value for k in call.keywords}
    if set(kw) != {"from_", "into"}:
        return None
    sources = [_name(s) for s in _items(kw["from_"])]
    sinks = [_sink(s) for s in _items(kw["into"])]
    if None in sources or None in sinks or not sinks:
        return None
    into = _or([s for s in sinks if s])
    if call.func.attr == "never":
        return f"Nothing read by {_or([s for s in sources if s])} reaches {into}." if sources else None
    if not sources:
        return f"{into[:1].upper()}{into[1:]}: only from the program itself, never from anything an effect returned."
    return f"{into[:1].upper()}{into[1:]}: only from what {_or([s for s in sources if s])} returned, or from the program itself."
