"""Typed compilation of calls: effects (EFF-5/6), inlined helpers, builtins, methods, solver models.

:class:`CallCompiler` is held by the function's ``expressions.ExprCompiler``, through which it
compiles the arguments, and shares its :class:`clauz3.language.body.Body`.
"""

from __future__ import annotations

import ast
from typing import Any

from clauz3.language import ir
from clauz3.language import types as T
from clauz3.language.bindings import (
    BBuiltin,
    BConst,
    BContract,
    BEffect,
    BException,
    BFunction,
    BGuarantee,
    Binding,
    BModule,
    BOther,
    BRowClass,
    BSolver,
    BTypedPath,
)
from clauz3.language.body import Body, Expressions
from clauz3.language.builtins_table import BUILTINS, METHODS


def eval_order(params: tuple[ir.Param, ...], bound: dict[str, Any]) -> tuple[int, ...]:
    """Indices into ``params`` in the order the call passes them (source order); () when that is param order."""
    index = {p.name: k for k, p in enumerate(params)}
    order = tuple(index[name] for name in bound if name in index)
    return () if list(order) == sorted(order) else order


def mismatch_hint(want: Any, got: Any) -> str:
    """A hint for a value of type ``got`` where ``want`` is needed."""
    if "object" in T.show(got):
        if isinstance(want, ir.TDict):
            example = f"d: {T.show(want)} = {{}}"
        else:
            elem = T.show(want) if isinstance(want, (ir.TList, ir.TSet)) else f"list[{T.show(want)}]"
            example = f"xs: {elem} = []"
        return (f"an empty `[]` or `{{}}` gets its element type from its first insertion; annotate it, "
                f"e.g. `{example}`")
    if want == ir.STR:
        return "convert it with str(...)"
    return f"pass a {T.show(want)} here"


class CallCompiler:
    """The calls of one function body."""

    def __init__(self, body: Body, exprs: Expressions) -> None:
        self.body = body
        self.exprs = exprs

    def call(self, node: ast.Call) -> Any:
        for a in node.args:
            if isinstance(a, ast.Starred):
                return self.body.err(a, "unsupported-expression", "starred argument (`*` unpacking)")
        for k in node.keywords:
            if k.arg is None:
                return self.body.err(k.value, "unsupported-expression", "`**` unpacking in a call")
        func = node.func
        if isinstance(func, ast.Name):
            if func.id in self.body.env or func.id in self.body.locals:
                return self.body.err(node, "unsupported-call", f"call of the local value `{func.id}`",
                                     "call a function by its name")
            b = self.body.scope.lookup(func.id, func.lineno, func.col_offset + 1)
            return self.call_binding(node, func.id, b)
        if isinstance(func, ast.Attribute):
            if func.attr.startswith("__") and func.attr.endswith("__"):
                return self.body.err(func, "unsupported-expression", f"dunder attribute `{self.body.seg(func)}`")
            base = self.exprs.module_binding(func.value)
            if base is not None:
                b = self.body.scope.attr(base, func.attr, func.lineno, func.col_offset + 1)
                if b is None:
                    return self.body.err(node, "unsupported-call", f"call to unknown `{self.body.seg(func)}`")
                return self.call_binding(node, self.body.seg(func), b)
            return self.method_call(node, func)
        return self.body.err(node, "unsupported-call", f"call of `{self.body.seg(func)}`", "call a function by its name")

    def call_binding(self, node: ast.Call, name: str, b: Binding | None) -> Any:
        if b is None:
            return self.body.err(node, "unbound-name", f"name `{name}` is not defined")
        if isinstance(b, BEffect):
            return self.effect_call(node, b.name, name)
        if isinstance(b, BFunction):
            return self.helper_call(node, b, name)
        if isinstance(b, BBuiltin):
            if BUILTINS[b.name].iterable_only:
                return self.body.err(node, "unsupported-call", f"`{b.name}` outside a for loop or comprehension",
                                     f"iterate `{b.name}(…)` directly in a for loop")
            return self.builtin_call(node, b.name)
        if isinstance(b, BSolver):
            return self.solver_call(node, b.real)
        if isinstance(b, BTypedPath):
            return self.typed_path(node, b.kind, name)
        if isinstance(b, BContract):
            return self.body.err(node, "unsupported-expression", f"call of contract helper `{name}` in a function body",
                                 "use it inside @clauz3.guarantee(...)")
        if isinstance(b, BException):
            return self.body.err(node, "unsupported-call", f"exception `{name}` outside `raise`")
        if isinstance(b, BRowClass):
            from clauz3.language.rownew import row_new

            return row_new(self.body, self.exprs, node, b.key, name)
        if isinstance(b, BGuarantee):
            return self.body.err(node, "unsupported-call", f"call to `{name}` in a function body",
                                 "use it as a decorator")
        if isinstance(b, (BConst, BModule)):
            return self.body.err(node, "unsupported-call", f"call of the value `{name}`")
        if isinstance(b, BOther) and b.trusted_only:
            return self.body.err(node, "unsupported-call", f"call to `{name}`", "only trusted libraries may use this")
        return self.body.err(node, "unsupported-call", f"call to `{name}`",
                             "call effects, helpers of this file, or the builtins of the subset")

    # ------------------------------------------------------------------------ arguments

    def bind_params(self, node: ast.Call, fname: str, params: tuple[ir.Param, ...]
                    ) -> tuple[dict[str, Any], list[str]] | None:
        """Bind positional and keyword arguments to parameters; returns (param → expr, omitted)."""
        bound: dict[str, Any] = {}
        positional = [p for p in params if p.kind != "keyword_only"]
        if len(node.args) > len(positional):
            self.body.err(node, "type-error", f"too many positional arguments to `{fname}` "
                                         f"({len(node.args)} given, at most {len(positional)})")
            return None
        ok = True
        for p, a in zip(positional, node.args, strict=False):
            bound[p.name] = a
        by_name = {p.name: p for p in params}
        for k in node.keywords:
            assert k.arg is not None
            named = by_name.get(k.arg)
            if named is None:
                self.body.err(k.value, "type-error", f"unexpected keyword argument `{k.arg}` of `{fname}`")
                ok = False
                continue
            if named.kind == "positional_only":
                self.body.err(k.value, "type-error", f"argument `{k.arg}` of `{fname}` is positional-only")
                ok = False
                continue
            if k.arg in bound:
                self.body.err(k.value, "type-error", f"argument `{k.arg}` of `{fname}` given twice")
                ok = False
                continue
            bound[k.arg] = k.value
        omitted = []
        for p in params:
            if p.name not in bound:
                if p.default is None:
                    self.body.err(node, "type-error", f"missing argument `{p.name}` of `{fname}`")
                    ok = False
                else:
                    omitted.append(p.name)
        if not ok:
            return None
        # In source order (positional, then keywords as written): the order calls evaluate them.
        return {name: self.arg(value, by_name[name], fname) for name, value in bound.items()}, omitted

    def arg(self, node: ast.expr, p: ir.Param, fname: str) -> Any:
        e = self.exprs.expr(node)
        self.body.release(node)  # MUT-1: a collection passed to a call is no longer uniquely owned
        if not T.is_err(e.type) and not T.is_err(p.type) and not T.assignable(e.type, p.type):
            return self.body.err(node, "type-error",
                                 f"argument `{p.name}` of `{fname}` must be {T.show(p.type)}, got {T.show(e.type)}",
                                 mismatch_hint(p.type, e.type))
        return e

    # ------------------------------------------------------------------------ effects

    def effect_call(self, node: ast.Call, name: str, spelled: str) -> Any:
        line, col = self.body.loc(node)
        if self.body.in_condition:
            return self.body.err(node, "unsupported-call", f"effect `{spelled}` called inside a condition")
        eff = self.body.ctx.effect(name)
        if eff is None:
            return self.body.err(node, "layer-error", f"effect `{spelled}` could not be read")
        short = eff.short
        res = self.bind_params(node, short, eff.params)
        self.body.ctx.effect_calls.setdefault(self.body.fn_key, set()).add(name)
        if res is None:
            return ir.Const(None, T.ERR, line, col)
        bound, omitted = res
        rtype = eff.returns
        if name in self.body.ctx.bad_returns:
            return self.body.err(node, "unsupported-type",
                                 f"`{short}` returns {self.body.ctx.bad_returns[name]}, which programs cannot use",
                                 "the library must annotate the result with a supported type")
        if eff.row_param is not None:
            arg = bound.get(eff.row_param)
            if not (isinstance(arg, ir.Const) and arg.kind == "rowclass"):
                return self.body.err(node, "type-error",
                                     f"argument `{eff.row_param}` of `{short}` must be a Row class name")
            rtype = ir.TList(ir.TRow(arg.value))
            self.body.ctx.ensure_row(arg.value)
        args = tuple(bound.items())  # source order: the interpreter and the prover evaluate them so
        site = self.body.ctx.site_for(self.body.file, line, col)
        return ir.EffectCall(name, args, tuple(omitted), rtype, line, col, site, self.body.seg(node), self.body.file)

    # ------------------------------------------------------------------------ helpers

    def helper_call(self, node: ast.Call, b: BFunction, spelled: str) -> Any:
        line, col = self.body.loc(node)
        sig = self.body.ctx.inliner.signature(b, node, self.body)
        if sig is None:
            return ir.Const(None, T.ERR, line, col)
        params = sig
        res = self.bind_params(node, spelled, params)
        if res is None:
            return ir.Const(None, T.ERR, line, col)
        bound, _omitted = res
        arg_types = tuple(bound[p.name].type if p.name in bound else p.type for p in params)
        fn = self.body.ctx.inliner.function(b, arg_types, node, self.body)
        if fn is None:
            return ir.Const(None, T.ERR, line, col)
        self.body.ctx.calls.setdefault(self.body.fn_key, set()).add(fn.name)
        args = []
        for p in fn.params:
            if p.name in bound:
                args.append(bound[p.name])
            else:
                assert p.default is not None
                args.append(ir.Const(p.default.value, p.default.type, line, col, p.default.kind))
        rtype = fn.returns if fn.returns_value else ir.NONE
        return ir.HelperCall(fn.name, tuple(args), rtype, line, col, self.body.seg(node), eval_order(fn.params, bound))

    def solver_call(self, node: ast.Call, real: str) -> Any:
        line, col = self.body.loc(node)
        sig = self.body.ctx.inliner.solver_signature(real, node, self.body)
        if sig is None:
            return ir.Const(None, T.ERR, line, col)
        params, returns, model_key = sig
        res = self.bind_params(node, real, params)
        if res is None:
            return ir.Const(None, T.ERR, line, col)
        bound, _ = res
        passed = [p for p in params if p.name in bound]
        args = tuple(bound[p.name] for p in passed)
        return ir.SolverCall(real, model_key, args, returns, line, col, eval_order(tuple(passed), bound))

    def typed_path(self, node: ast.Call, kind: str, name: str) -> Any:
        line, col = self.body.loc(node)
        if len(node.args) != 1 or node.keywords or not (isinstance(node.args[0], ast.Constant)
                                                        and isinstance(node.args[0].value, str)):
            return self.body.err(node, "unsupported-call", f"`{name}` needs one string literal")
        text = node.args[0].value
        try:
            from clauz3.vocabulary import paths

            cls = paths.FilePath if kind == "filepath" else paths.DirectoryPath
            value = str(cls(text))
        except (ImportError, AttributeError):
            value = text
        except ValueError as exc:
            return self.body.err(node, "type-error", f"invalid path literal: {exc}")
        return ir.Const(value, ir.STR, line, col, kind)

    # ------------------------------------------------------------------------ builtins

    def builtin_call(self, node: ast.Call, name: str) -> Any:
        line, col = self.body.loc(node)
        spec = BUILTINS[name]
        if node.keywords and name != "print":
            return self.body.err(node, "unsupported-call", f"keyword arguments to `{name}`")
        n = len(node.args)
        if not spec.min_args <= n <= spec.max_args:
            return self.body.err(node, "type-error", f"`{name}` takes {spec.min_args}"
                                 + (f"–{spec.max_args}" if spec.max_args != spec.min_args else "")
                                 + f" arguments, got {n}")
        if name == "print" and node.keywords:
            return self.body.err(node, "unsupported-call", "keyword arguments to `print`")
        args = [self.exprs.expr(a) for a in node.args]
        types = [a.type for a in args]
        if T.is_err(*types):
            return ir.BuiltinCall(name, tuple(args), (), T.ERR, line, col, self.body.seg(node))
        t = self.builtin_type(node, name, args, types)
        if t is None:
            return ir.Const(None, T.ERR, line, col)
        return ir.BuiltinCall(name, tuple(args), (), t, line, col, self.body.seg(node))

    def builtin_type(self, node: ast.Call, name: str, args: list[Any], types: list[Any]) -> Any | None:
        def bad(msg: str) -> ir.Type | None:  # always None: `return bad(...)` reports and refuses in one line
            self.body.err(node, "type-error", msg)
            return None

        a = types[0] if types else None
        if name == "len":
            if a == ir.STR or isinstance(a, (ir.TList, ir.TSet, ir.TTuple, ir.TDict)):
                return ir.INT
            return bad(f"`len` of {T.show(a)}")
        if name == "abs":
            if T.is_numeric(a):
                return ir.INT if a == ir.BOOL else a
            return bad(f"`abs` of {T.show(a)}")
        if name == "round":
            # round(x) is an int; round(x, n) keeps x's type, and n must be an int literal so the
            # prover knows which rounding it models (a computed n would be unprovable anyway).
            if not T.is_numeric(a):
                return bad(f"`round` of {T.show(a)}")
            if len(args) == 1:
                return ir.INT
            nd = args[1]
            if not (isinstance(nd, ir.Const) and type(nd.value) is int):
                self.body.err(node, "type-error", "the digits of `round(x, n)` must be an int literal",
                              "write the number of digits as a literal, e.g. round(x, 2)")
                return None
            return ir.INT if a in (ir.INT, ir.BOOL) else a
        if name == "float":
            if not types or T.is_numeric(a) or a == ir.STR:
                return ir.FLOAT
            return bad(f"`float` of {T.show(a)}")
        if name == "int":
            if not types or T.is_numeric(a) or a == ir.STR:
                return ir.INT
            return bad(f"`int` of {T.show(a)}")
        if name == "str":
            if not types or T.is_scalar(a):
                return ir.STR
            return bad(f"`str` of {T.show(a)} is not supported")
        if name == "ord":
            return ir.INT if a == ir.STR else bad(f"`ord` of {T.show(a)}")
        if name == "chr":
            return ir.STR if T.is_intlike(a) else bad(f"`chr` of {T.show(a)}")
        if name in ("min", "max"):
            if len(types) == 1:
                e = T.elem_type(a)
                if e is None or isinstance(a, ir.TDict):
                    return bad(f"`{name}` of {T.show(a)}")
                items = [e]
            else:
                items = types
            if all(T.is_numeric(t) for t in items):
                out = items[0]
                for t in items[1:]:
                    out = T.numeric_join(out, t)
                return out
            if all(t == ir.STR for t in items):
                return ir.STR
            return bad(f"`{name}` of mixed or unordered values")
        if name == "sum":
            e = T.elem_type(a)
            if e is None or not T.is_numeric(e) or isinstance(a, ir.TDict):
                return bad(f"`sum` of {T.show(a)}")
            out = T.numeric_join(e, ir.INT)
            if len(types) == 2:
                if not T.is_numeric(types[1]):
                    return bad("`sum` start must be a number")
                out = T.numeric_join(out, types[1])
            return out
        if name in ("list", "set", "tuple"):
            if not types:
                return {"list": ir.TList(ir.OBJECT), "set": ir.TSet(ir.OBJECT),
                        "tuple": ir.TTuple(elems=())}[name]
            e = T.elem_type(a)
            if e is None:
                return bad(f"`{name}` of {T.show(a)}")
            empty = isinstance(args[0], (ir.ListExpr, ir.TupleExpr, ir.SetExpr)) and not args[0].elts
            if name == "set" and T.unhashable(e) and not empty:
                return bad(f"`set` of unhashable elements ({T.show(e)})")
            return {"list": ir.TList(e), "set": ir.TSet(e), "tuple": ir.TTuple(elem=e)}[name]
        if name == "dict":
            if not types:
                return ir.TDict(ir.OBJECT, ir.OBJECT)
            if isinstance(a, ir.TDict):
                return a
            return bad(f"`dict` of {T.show(a)}")
        if name == "print":
            return ir.NONE
        if name == "math.isclose":
            return ir.BOOL if all(T.is_numeric(t) for t in types) else bad("`math.isclose` needs numbers")
        if name in ("math.isinf", "math.isnan"):
            return ir.BOOL if T.is_numeric(a) else bad(f"`{name}` of {T.show(a)}")
        if name in ("math.floor", "math.ceil", "math.trunc"):
            return ir.INT if T.is_numeric(a) else bad(f"`{name}` of {T.show(a)}")
        return bad(f"`{name}` is not supported here")

    # ------------------------------------------------------------------------ methods

    def method_call(self, node: ast.Call, func: ast.Attribute) -> Any:
        line, col = self.body.loc(node)
        obj = self.exprs.expr(func.value)
        t = obj.type
        if T.is_err(t):
            return ir.Const(None, T.ERR, line, col)
        if isinstance(t, ir.TOptional):
            return self.body.err(node, "type-error", f"`{self.body.seg(func.value)}` may be None here",
                                 f"test `{self.body.seg(func.value)} is not None` first")
        if t == ir.STR and func.attr == "format":
            from clauz3.language.strformat import lower_format

            return lower_format(self.body, self.exprs, node, func)
        receiver = ("str" if t == ir.STR else "list" if isinstance(t, ir.TList) else "set"
                    if isinstance(t, ir.TSet) else "dict" if isinstance(t, ir.TDict) else None)
        spec = METHODS.get((receiver or "", func.attr))
        if receiver is None or spec is None:
            return self.body.err(node, "unsupported-call", f"method `{func.attr}` of {T.show(t)}",
                                 "only the methods listed in the subset are available")
        if node.keywords:
            return self.body.err(node, "unsupported-call", f"keyword arguments to `{receiver}.{func.attr}`")
        if not spec.min_args <= len(node.args) <= spec.max_args:
            return self.body.err(node, "type-error", f"`{receiver}.{func.attr}` takes {spec.min_args}"
                                 + (f"–{spec.max_args}" if spec.max_args != spec.min_args else "")
                                 + f" arguments, got {len(node.args)}")
        if spec.mutating:
            problem = self.body.mutation_problem(func.value)
            if problem:
                return ir.Const(None, T.ERR, line, col)
        args = [self.exprs.stored(a) if spec.mutating else self.exprs.expr(a) for a in node.args]
        types = [a.type for a in args]
        if T.is_err(*types):
            return ir.Const(None, T.ERR, line, col)
        rt = self.method_type(node, receiver, func.attr, t, types, func.value)
        if rt is None:
            return ir.Const(None, T.ERR, line, col)
        if spec.mutating:
            obj = ir.Name(obj.id, self.body.env[obj.id].type, obj.line, obj.col) if isinstance(obj, ir.Name) else obj
        return ir.MethodCall(receiver, func.attr, obj, tuple(args), rt, line, col, self.body.seg(node))

    def method_type(self, node: ast.Call, receiver: str, method: str, t: Any, types: list[Any],
                    target: ast.expr) -> Any | None:
        def bad(msg: str) -> ir.Type | None:  # always None: `return bad(...)` reports and refuses in one line
            self.body.err(node, "type-error", msg)
            return None

        a = types[0] if types else None
        if receiver == "str":
            if method in ("startswith", "endswith", "find", "index", "count"):
                if a != ir.STR:
                    return bad(f"`str.{method}` needs a str argument, got {T.show(a)}")
                # find/index take optional int start and end positions (as str slices do).
                for extra in types[1:]:
                    if extra not in (ir.INT, ir.BOOL):
                        return bad(f"`str.{method}` start and end positions must be int, got {T.show(extra)}")
                return ir.BOOL if method in ("startswith", "endswith") else ir.INT
            if method == "join":
                if isinstance(a, (ir.TList, ir.TTuple, ir.TSet)) and T.elem_type(a) == ir.STR:
                    return ir.STR
                return bad(f"`str.join` needs a list of str, got {T.show(a)}")
            if method == "split":
                return ir.TList(ir.STR) if a in (None, ir.STR, ir.NONE) else bad("`str.split` separator must be str")
            if method in ("strip", "lstrip", "rstrip"):
                return ir.STR if a in (None, ir.STR, ir.NONE) else bad(f"`str.{method}` argument must be str")
            if method in ("lower", "upper", "title", "capitalize", "casefold", "swapcase"):
                return ir.STR
            if method in ("isdigit", "isalpha", "isalnum", "isspace", "islower", "isupper"):
                return ir.BOOL
            if method == "replace":
                return ir.STR if all(x == ir.STR for x in types) else bad("`str.replace` needs str arguments")
        if receiver == "list":
            if method in ("index", "count"):
                return ir.INT
            if method == "append":
                return self.insert(target, t, a, node)
            if method == "extend":
                e = T.elem_type(a)
                if e is None or isinstance(a, ir.TDict):
                    return bad(f"`list.extend` needs a bounded collection, got {T.show(a)}")
                return self.insert(target, t, e, node, count=self.body.static_len_of_type(node.args[0]))
        if receiver == "set" and method == "add":
            return self.insert(target, t, a, node)
        if receiver == "dict":
            if method == "get":
                if types and T.surely_unhashable(types[0]):
                    return bad(f"unhashable dict key of type {T.show(types[0])} in `dict.get` (a TypeError when run)")
                if len(types) == 2:
                    j = T.join(t.value, types[1])
                    return j if j is not None else bad("`dict.get` default does not match the value type")
                return ir.TOptional(t.value) if not isinstance(t.value, ir.TOptional) else t.value
            if method == "keys":
                return ir.TList(t.key)
            if method == "values":
                return ir.TList(t.value)
            if method == "items":
                return ir.TList(ir.TTuple(elems=(t.key, t.value)))
        return bad(f"`{receiver}.{method}` is not supported")

    def insert(self, target: ast.expr, t: Any, elem: Any, node: ast.Call, count: int | None = 1) -> Any | None:
        """Type check (and refine) an insertion into an owned local collection; track its length bound."""
        assert isinstance(target, ast.Name)
        var = self.body.env[target.id]
        if isinstance(var.type, ir.TSet) and T.unhashable(elem):
            self.body.err(node, "type-error", f"unhashable element of type {T.show(elem)} in a set")
            return None
        cur = var.type.elem
        if var.refinable and cur == ir.OBJECT:
            var.type = type(var.type)(elem)
            var.refinable = False
        elif not T.assignable(elem, var.type.elem):
            self.body.err(node, "type-error", f"cannot insert {T.show(elem)} into `{target.id}` of type {T.show(var.type)}")
            return None
        if var.max_len is not None:
            var.max_len = None if count is None else var.max_len + count * self.body.loop_mult
        return ir.NONE
