"""Proof models of the 01 §3.4 methods of str, list, dict and set (``METHOD_MODELS``)."""

from __future__ import annotations

from typing import Any

import z3

from clauz3.language import ir
from clauz3.prover import access, ops
from clauz3.prover.logic import mk_not, z3_true
from clauz3.prover.model import CallNode, Model, ModelEntry, src_of
from clauz3.prover.state import SymbolicExecutor
from clauz3.prover.strfold import fold_method
from clauz3.prover.values import (
    NONE_V,
    DictV,
    ListV,
    NoneV,
    TDictV,
    TListV,
    Unsupported,
    check,
    contains,
    dict_lookup,
    dict_visible,
    eq,
    merge,
    raw,
    to_int,
    val,
    visible,
)


def _startswith(ex: SymbolicExecutor, node: CallNode, args: list[Any], kw: dict[str, Any]) -> Any:
    s, p = val(args[0]), val(args[1])
    if isinstance(p, ListV):
        return z3.Or(*[z3.PrefixOf(raw(x), s) for x in p.items]) if p.items else z3.BoolVal(False)
    return z3.PrefixOf(p, s)


def _endswith(ex: SymbolicExecutor, node: CallNode, args: list[Any], kw: dict[str, Any]) -> Any:
    s, p = val(args[0]), val(args[1])
    if isinstance(p, ListV):
        return z3.Or(*[z3.SuffixOf(raw(x), s) for x in p.items]) if p.items else z3.BoolVal(False)
    return z3.SuffixOf(p, s)


def _search(args: list[Any]) -> Any:
    """Exact ``s.find(sub[, start[, end]])`` (CPython's slice-index adjustment, then a search)."""
    s, p = val(args[0]), val(args[1])
    if len(args) == 2:
        return z3.IndexOf(s, p, 0)
    n = z3.Length(s)
    start = to_int(val(args[2]))
    start = z3.If(start < 0, z3.If(start + n < 0, 0, start + n), start)
    if len(args) == 3:
        # z3's indexof already answers -1 when the offset lies beyond the end, like CPython.
        return z3.IndexOf(s, p, start)
    end = to_int(val(args[3]))
    end = z3.If(end > n, n, z3.If(end < 0, z3.If(end + n < 0, 0, end + n), end))
    found = z3.IndexOf(z3.SubString(s, start, end - start), p, 0)
    return z3.If(end - start < z3.Length(p), -1, z3.If(found < 0, -1, found + start))


def _find(ex: SymbolicExecutor, node: CallNode, args: list[Any], kw: dict[str, Any]) -> Any:
    return _search(args)


def _str_index(ex: SymbolicExecutor, node: CallNode, args: list[Any], kw: dict[str, Any]) -> Any:
    s = val(args[0])
    out = _search(args)
    ex.exception("ValueError", node, out >= 0, src_of(node) or "str.index(…)", (("text", s),))
    return out


def _join(ex: SymbolicExecutor, node: CallNode, args: list[Any], kw: dict[str, Any]) -> Any:
    sep, coll = val(args[0]), val(args[1])
    if not isinstance(coll, ListV):
        raise Unsupported("str.join over a collection of unknown length")
    out: Any = z3.StringVal("")
    first = z3.BoolVal(True)
    for k, it in enumerate(coll.items):
        g = visible(coll, k, ex.ctx.fresh_bool)
        piece = z3.If(first, raw(it), z3.Concat(sep, raw(it)))
        out = z3.If(g, z3.Concat(out, piece), out)
        first = z3.And(first, mk_not(g))
    return z3.simplify(out) if all(z3.is_string_value(z3.simplify(raw(x))) for x in coll.items) else out


def _abstract_str(fact: str) -> Model:
    def model(ex: SymbolicExecutor, node: CallNode, args: list[Any], kw: dict[str, Any]) -> Any:
        folded = fold_method(node.method, args) if hasattr(node, "method") else None
        if folded is not None:
            return folded
        s = val(args[0])
        out = ex.ctx.fresh(z3.StringSort(), node.method if hasattr(node, "method") else "str", abstract=True)
        if fact == "shorter":
            ex.ctx.assume(z3.Length(out) <= z3.Length(s))
        return out
    return model


def _abstract_test(ex: SymbolicExecutor, node: CallNode, args: list[Any], kw: dict[str, Any]) -> Any:
    """``isdigit`` and friends: exact on known ASCII text, else an unconstrained bool."""
    assert isinstance(node, ir.MethodCall)  # registered for str methods only
    folded = fold_method(node.method, args)
    if folded is not None:
        return folded
    return ex.ctx.fresh_bool(node.method)


def _str_count(ex: SymbolicExecutor, node: CallNode, args: list[Any], kw: dict[str, Any]) -> Any:
    s, p = val(args[0]), val(args[1])
    out = ex.ctx.fresh(z3.IntSort(), "count", abstract=True)
    ex.ctx.assume(z3.And(out >= 0, out <= z3.Length(s) + 1))
    ex.ctx.assume(z3.Implies(z3.And(z3.Length(p) > 0, z3.Not(z3.Contains(s, p))), out == 0))
    ex.ctx.assume(z3.Implies(z3.And(z3.Length(p) > 0, z3.Contains(s, p)), out >= 1))
    return out


def _split(ex: SymbolicExecutor, node: CallNode, args: list[Any], kw: dict[str, Any]) -> Any:
    folded = fold_method("split", args)
    if folded is not None:
        return folded
    s = val(args[0])
    if len(args) > 1 and not isinstance(check(args[1]), NoneV):
        sep = val(args[1])
        ex.exception("ValueError", node, z3.Length(sep) > 0, src_of(node) or "str.split(…)")
        n = ex.ctx.fresh(z3.IntSort(), "split_len", abstract=True)
        ex.ctx.assume(z3.And(n >= 1, n <= z3.Length(s) + 1))
    else:
        n = ex.ctx.fresh(z3.IntSort(), "split_len", abstract=True)
        ex.ctx.assume(z3.And(n >= 0, n <= z3.Length(s)))
    elem = ex.ctx.fresh_fn("split_elem", z3.StringSort())
    return TListV(n, elem, ir.STR, src_of(node) or "str.split(…)")


def _list_index(ex: SymbolicExecutor, node: CallNode, args: list[Any], kw: dict[str, Any]) -> Any:
    coll, item = val(args[0]), args[1]
    if not isinstance(coll, ListV):
        raise Unsupported("list.index over a collection of unknown length")
    ex.exception("ValueError", node, contains(coll, item, ex.ctx.fresh_bool), src_of(node) or "list.index(…)")
    result: Any = z3.IntVal(0)
    for k in reversed(range(len(coll.items))):
        hit = z3.And(visible(coll, k), eq(coll.items[k], item, ex.ctx.fresh_bool))
        result = z3.If(hit, z3.IntVal(k), result)
    return result


def _list_count(ex: SymbolicExecutor, node: CallNode, args: list[Any], kw: dict[str, Any]) -> Any:
    coll, item = val(args[0]), args[1]
    if not isinstance(coll, ListV):
        raise Unsupported("list.count over a collection of unknown length")
    terms = [z3.If(z3.And(visible(coll, k), eq(it, item, ex.ctx.fresh_bool)), 1, 0)
             for k, it in enumerate(coll.items)]
    return z3.Sum(*terms) if terms else z3.IntVal(0)


def _dict_get(ex: SymbolicExecutor, node: CallNode, args: list[Any], kw: dict[str, Any]) -> Any:
    d, key = val(args[0]), args[1]
    default = args[2] if len(args) > 2 else NONE_V
    if isinstance(d, DictV):
        found, value = dict_lookup(d, key)
        if value is None:
            return default
        return merge(found, value, default)
    if isinstance(d, TDictV) and d.has is not None:
        k = access.dict_key(d, key)
        return merge(z3.Select(d.has, k), z3.Select(d.val, k), default)
    if isinstance(d, TDictV):
        flag = ex.ctx.fresh_bool("has")
        return merge(flag, ex.fresh_value(d.value_type, "dictval", abstract=True), default)
    raise Unsupported("dict.get on this value")


def _dict_view(which: str) -> Model:
    def model(ex: SymbolicExecutor, node: CallNode, args: list[Any], kw: dict[str, Any]) -> Any:
        d = val(args[0])
        if not isinstance(d, DictV):
            raise Unsupported(f"dict.{which}() of a dict of unknown size")
        out = ListV([], 0, "list")
        for k in range(len(d.keys)):
            _, value = dict_lookup(d, d.keys[k])
            item = {"keys": d.keys[k], "values": value, "items": ListV([d.keys[k], value], 2, "tuple")}[which]
            out = ops.append_if(out, dict_visible(d, k), item)
        return out
    return model


def _mutator(which: str) -> Model:
    def model(ex: SymbolicExecutor, node: CallNode, args: list[Any], kw: dict[str, Any]) -> Any:
        assert isinstance(node, ir.MethodCall)  # registered for list.append/extend and set.add only
        if not isinstance(node.obj, ir.Name):
            raise Unsupported(f"{which} on something that is not a local name")
        cur = check(ex.frame.env[node.obj.id])
        if not isinstance(cur, ListV):
            raise Unsupported(f"{which} on this value")
        cond = z3.And(*ex.local_conds) if ex.local_conds else z3_true()
        if which == "extend":
            new = cur
            for g, it in access.items_of(ex, args[1]):
                new = ops.append_if(new, z3.And(cond, g) if ex.local_conds else g, it)
        else:
            new = ops.append_if(cur, cond, args[1])
        ex.frame.env[node.obj.id] = new
        return NONE_V
    return model



METHOD_MODELS: dict[str, ModelEntry] = {
    "str.startswith": ModelEntry(_startswith, "exact"),
    "str.endswith": ModelEntry(_endswith, "exact"),
    "str.find": ModelEntry(_find, "exact"),
    "str.index": ModelEntry(_str_index, "exact"),
    "str.join": ModelEntry(_join, "exact"),
    "str.count": ModelEntry(_str_count, "abstract"),
    "str.split": ModelEntry(_split, "abstract"),
    "str.strip": ModelEntry(_abstract_str("shorter"), "abstract"),
    "str.lstrip": ModelEntry(_abstract_str("shorter"), "abstract"),
    "str.rstrip": ModelEntry(_abstract_str("shorter"), "abstract"),
    "str.lower": ModelEntry(_abstract_str(""), "abstract"),
    "str.upper": ModelEntry(_abstract_str(""), "abstract"),
    "str.replace": ModelEntry(_abstract_str(""), "abstract"),
    "str.title": ModelEntry(_abstract_str(""), "abstract"),
    "str.capitalize": ModelEntry(_abstract_str(""), "abstract"),
    "str.casefold": ModelEntry(_abstract_str(""), "abstract"),
    "str.swapcase": ModelEntry(_abstract_str(""), "abstract"),
    "str.isdigit": ModelEntry(_abstract_test, "abstract"),
    "str.isalpha": ModelEntry(_abstract_test, "abstract"),
    "str.isalnum": ModelEntry(_abstract_test, "abstract"),
    "str.isspace": ModelEntry(_abstract_test, "abstract"),
    "str.islower": ModelEntry(_abstract_test, "abstract"),
    "str.isupper": ModelEntry(_abstract_test, "abstract"),
    "list.index": ModelEntry(_list_index, "exact"),
    "list.count": ModelEntry(_list_count, "exact"),
    "dict.get": ModelEntry(_dict_get, "exact"),
    "dict.keys": ModelEntry(_dict_view("keys"), "exact"),
    "dict.values": ModelEntry(_dict_view("values"), "exact"),
    "dict.items": ModelEntry(_dict_view("items"), "exact"),
    "list.append": ModelEntry(_mutator("append"), "exact"),
    "list.extend": ModelEntry(_mutator("extend"), "exact"),
    "set.add": ModelEntry(_mutator("add"), "exact"),
}
