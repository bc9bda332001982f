"""Guarantees (01 §3.1 GRM-1…5, §2.5 CON-3…6): decorator grammar, literal decoding, binding to
the helper signature, helper evaluation under a 2 s limit, description and bound call."""

from __future__ import annotations

import ast
import copy
import inspect
import signal
import threading
import typing
from dataclasses import dataclass
from typing import Any, cast

from clauz3.language import ir
from clauz3.language.bindings import BContract, BFunction, BGuarantee, Binding, BOther, BRowClass, BTypedPath
from clauz3.language.context import ProgramContext
from clauz3.language.contracts import SpecCompiler, SpecError, spec_class
from clauz3.language.diagnostics import LAYER_SUFFIX
from clauz3.language.errors import LanguageError

HELPER_TIMEOUT = 2.0
MAX_GUARANTEES = 256
MAX_GUARANTEE_CHARS = 4_096
MAX_NESTING = 8
MAX_ELEMENTS = 10_000
MAX_STRING_BYTES = 65_536


class GrammarError(LanguageError):
    def __init__(self, node: ast.AST, message: str, code: str = "guarantee-grammar", hint: str | None = None) -> None:
        super().__init__(message)
        self.node, self.message, self.code, self.hint = node, message, code, hint


@dataclass(frozen=True)
class PathLit:
    """``FilePath("…")`` in a guarantee: converted once the parameter's annotation is known."""

    kind: str
    text: str


@dataclass
class Site:
    """A grammar-checked guarantee decorator."""

    node: ast.expr | ast.FunctionDef  # the decorator (the function itself for a required helper)
    call: ast.Call  # the helper call
    key: str  # CONTRACTS key
    args: list[Any]
    kwargs: dict[str, Any]
    expression: str


class _Timeout(BaseException):
    pass


def call_with_timeout(fn: Any, args: list[Any], kwargs: dict[str, Any], seconds: float = HELPER_TIMEOUT) -> Any:
    if threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer"):
        def on_alarm(signum: int, frame: Any) -> None:
            raise _Timeout()

        old = signal.signal(signal.SIGALRM, on_alarm)
        signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            return fn(*args, **kwargs)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old)
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = fn(*args, **kwargs)
        except BaseException as exc:  # reported as contract-error by the caller
            box["error"] = exc

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(seconds)
    if t.is_alive():
        raise _Timeout()
    if "error" in box:
        raise box["error"]
    return box.get("value")


class Guarantees:
    def __init__(self, ctx: ProgramContext, resolve: Any) -> None:
        self.ctx = ctx
        self.resolve = resolve  # ast expr → Binding | None (entry-file names and dotted modules)
        self.elements = 0
        self.count = 0
        self.memo: dict[tuple[str, str], Any] = {}
        self.specs = SpecCompiler(ctx)

    def err(self, node: ast.AST, code: str, message: str, hint: str | None = None) -> None:
        self.ctx.diags.error(getattr(node, "lineno", 1), self.ctx.entry.col(node), code, message, hint)

    # ------------------------------------------------------------------------ grammar

    def sites(self, fdef: ast.FunctionDef, module_level: bool) -> list[Site]:
        out: list[Site] = []
        for dec in fdef.decorator_list:
            func = dec.func if isinstance(dec, ast.Call) else dec
            b = self.resolve(func)
            if not isinstance(b, BGuarantee):
                self._not_allowed(dec, func, b)
                continue
            if not module_level:
                self.err(dec, "decorator-not-allowed", "`guarantee` on a nested function")
                continue
            self.count += 1
            if self.count == MAX_GUARANTEES + 1:
                self.err(dec, "limit-exceeded", f"more than {MAX_GUARANTEES} guarantees in one file")
            try:
                out.append(self._site(dec))
            except GrammarError as exc:
                self.err(exc.node, exc.code, exc.message, exc.hint)
        return out

    def _not_allowed(self, dec: ast.expr, func: ast.expr, b: Binding | None) -> None:
        name = self.ctx.entry.segment(func) or "decorator"
        trusted_only = isinstance(b, BOther) and b.trusted_only
        if not trusted_only and isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and \
                func.value.id == "deal":
            trusted_only = True
        self.err(dec, "decorator-not-allowed", f"decorator `@{name}`",
                 "only trusted libraries may use this" if trusted_only
                 else "the only decorator allowed in a program is @clauz3.guarantee(...)")

    def _site(self, dec: ast.expr) -> Site:
        if not isinstance(dec, ast.Call):
            raise GrammarError(dec, "`guarantee` used without an argument", hint="write @clauz3.guarantee(helper(...))")
        if len(dec.args) != 1 or dec.keywords:
            raise GrammarError(dec, "`guarantee` takes exactly one positional argument")
        text = self.ctx.entry.segment(dec.args[0])
        if len(text) > MAX_GUARANTEE_CHARS:
            raise GrammarError(dec, f"guarantee of {len(text)} characters exceeds the limit of "
                                    f"{MAX_GUARANTEE_CHARS}", code="limit-exceeded")
        call = dec.args[0]
        if not isinstance(call, ast.Call):
            b = self.resolve(call) if isinstance(call, (ast.Name, ast.Attribute)) else None
            if isinstance(b, BContract):
                raise GrammarError(call, f"contract helper `{text}` named without a call", hint=f"call it: {text}(...)")
            what = {ast.Constant: "a literal", ast.Lambda: "a lambda"}.get(type(call), f"`{text}`")
            raise GrammarError(call, f"{what} is not a contract helper call",
                               hint="pass a call of a contract helper, e.g. emails.at_most(1)")
        func = call.func
        if not (isinstance(func, ast.Name) or (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name))):
            raise GrammarError(func, f"`{self.ctx.entry.segment(func)}` is not a contract helper name")
        b = self.resolve(func)
        name = self.ctx.entry.segment(func)
        if isinstance(b, BGuarantee):
            raise GrammarError(call, "nested guarantee")
        if isinstance(b, BFunction) and b.kind == "entry":
            raise GrammarError(call, f"helper `{name}` is defined in the program",
                               hint="use a contract helper of a trusted library")
        if not isinstance(b, BContract):
            raise GrammarError(func, f"`{name}` is not a registered contract helper", code="unknown-contract")
        for a in call.args:
            if isinstance(a, ast.Starred):
                raise GrammarError(a, "starred argument")
        args = [self.decode(a, 0) for a in call.args]
        kwargs = {}
        for k in call.keywords:
            if k.arg is None:
                raise GrammarError(k.value, "`**` argument")
            kwargs[k.arg] = self.decode(k.value, 0)
        return Site(dec, call, b.key, args, kwargs, text)

    def decode(self, node: ast.expr, depth: int) -> Any:
        if depth > MAX_NESTING:
            raise GrammarError(node, f"literal nesting deeper than {MAX_NESTING}", code="limit-exceeded")
        self.elements += 1
        if self.elements == MAX_ELEMENTS + 1:
            raise GrammarError(node, f"more than {MAX_ELEMENTS} literal elements in guarantees", code="limit-exceeded")
        if isinstance(node, ast.Constant):
            v = node.value
            if isinstance(v, str):
                if len(v.encode()) > MAX_STRING_BYTES:
                    raise GrammarError(node, f"string of {len(v.encode())} bytes exceeds the limit of "
                                             f"{MAX_STRING_BYTES}", code="limit-exceeded")
                return v
            if v is None or isinstance(v, (bool, int, float)):
                return v
            raise GrammarError(node, f"literal `{self.ctx.entry.segment(node)}` is not allowed")
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant) \
                and type(node.operand.value) in (int, float):
            return -cast("int | float", node.operand.value)  # the test above: an int or a float
        if isinstance(node, ast.List):
            return [self.decode(e, depth + 1) for e in node.elts]
        if isinstance(node, ast.Tuple):
            return tuple(self.decode(e, depth + 1) for e in node.elts)
        if isinstance(node, ast.Set):
            items = [self.decode(e, depth + 1) for e in node.elts]
            try:
                return set(items)
            except TypeError:
                raise GrammarError(node, "unhashable set element") from None
        if isinstance(node, ast.Dict):
            out = {}
            for k, item in zip(node.keys, node.values, strict=True):
                if k is None:
                    raise GrammarError(item, "`**` in a dict literal")
                key = self.decode(k, depth + 1)
                if isinstance(key, (list, dict, set)):
                    raise GrammarError(k, "unhashable dict key")
                out[key] = self.decode(item, depth + 1)
            return out
        if isinstance(node, ast.Call) and isinstance(node.func, (ast.Name, ast.Attribute)):
            b = self.resolve(node.func)
            if isinstance(b, BTypedPath):
                if len(node.args) == 1 and not node.keywords and isinstance(node.args[0], ast.Constant) \
                        and isinstance(node.args[0].value, str):
                    return PathLit(b.kind, node.args[0].value)
                raise GrammarError(node, "a typed path takes one string literal")
        if isinstance(node, ast.Name):
            b = self.resolve(node)
            if isinstance(b, BRowClass):
                cls = self.ctx.layer.rows.get(b.key) or self.ctx.entry_rows.get(b.key)
                if cls is not None:
                    return cls
            raise GrammarError(node, f"name `{node.id}` as a guarantee argument", hint="write the literal value")
        if isinstance(node, ast.JoinedStr):
            raise GrammarError(node, "f-string as a guarantee argument", hint="write the literal value")
        if isinstance(node, ast.BinOp):
            raise GrammarError(node, f"computed argument `{self.ctx.entry.segment(node)}`",
                               hint="write the literal value")
        raise GrammarError(node, f"argument `{self.ctx.entry.segment(node)}` is not a literal",
                           hint="write the literal value")

    # ------------------------------------------------------------------------ evaluation

    def build(self, site: Site, kind: str = "guarantee", line: int | None = None, col: int | None = None
              ) -> ir.Guarantee | None:
        meta = self.ctx.layer.contracts.get(site.key)
        node = site.call
        if meta is None:
            self.err(node, "unknown-contract", f"`{site.key}` is not a registered contract helper")
            return None
        library = getattr(meta, "library", None) or meta.module
        qual = f"{library}.{meta.qualname}"
        where = f"{meta.file}:{meta.line}"
        try:
            sig = inspect.signature(meta.fn)
            bound = sig.bind(*site.args, **site.kwargs)
        except TypeError as exc:
            self.err(node, "contract-error", f"arguments of `{qual}` do not match its signature: {exc}")
            return None
        bound.apply_defaults()
        try:
            hints = typing.get_type_hints(meta.fn)
        except Exception:
            hints = {}
        values: dict[str, Any] = {}
        for pname, value in bound.arguments.items():
            try:
                values[pname] = convert(value, hints.get(pname, inspect.Parameter.empty))
            except _Mismatch as exc:
                self.err(node, "contract-error", f"argument `{pname}` of `{qual}` must be {exc.expected}, "
                                                 f"got {exc.got}")
                return None
            except ValueError as exc:
                self.err(node, "contract-error", f"argument `{pname}` of `{qual}`: {exc}")
                return None
        memo_key = (site.key, repr(sorted(values.items(), key=lambda kv: kv[0])))
        if memo_key in self.memo:
            result = self.memo[memo_key]
        else:
            fresh = {k: copy.deepcopy(v) if not isinstance(v, type) else v for k, v in values.items()}
            try:
                result = call_with_timeout(meta.fn, [], fresh)
            except _Timeout:
                self.err(node, "contract-error", f"`{qual}` ({where}) did not return within {HELPER_TIMEOUT:g} s")
                return None
            except Exception as exc:
                self.err(node, "contract-error", f"`{qual}` ({where}) raised {type(exc).__name__}: {exc}")
                return None
            self.memo[memo_key] = result
        from clauz3.vocabulary.contracts import ContractSpec

        if not isinstance(result, ContractSpec):
            self.err(node, "contract-error", f"`{qual}` ({where}) returned {type(result).__name__}, not a ContractSpec")
            return None
        try:
            spec = self.specs.spec(result)
        except SpecError as exc:
            msg = f"`{qual}` ({where}): {exc.message}"
            if exc.code in ("unknown-effect", "ambiguous-effect"):
                msg += f"; {LAYER_SUFFIX}"
            self.err(node, exc.code, msg)
            return None
        from clauz3.vocabulary.describe import bind_call, render_description

        try:
            description = render_description(meta, values)
        except Exception:
            description = None
        if description is None and isinstance(spec, ir.FlowSpec):
            from clauz3.language.flowlabels import flow_sentence

            description = flow_sentence(spec)  # issue 20: a flow guarantee is said in words on the card
        try:
            _, call_text = bind_call(meta, [], values)
        except Exception:
            call_text = f"{qual}(…)"
        args = tuple((k, jsonable(v, self.ctx)) for k, v in values.items())
        dec = site.node
        return ir.Guarantee(kind, site.expression if kind == "guarantee" else call_text, call_text, site.key,
                            library, args, description, spec, spec_class(spec, self.ctx.effects),
                            line if line is not None else dec.lineno,
                            col if col is not None else self.ctx.entry.col(dec))


class _Mismatch(LanguageError):
    def __init__(self, expected: str, got: str) -> None:
        super().__init__(expected)
        self.expected, self.got = expected, got


def _tname(v: Any) -> str:
    if isinstance(v, PathLit):
        return "FilePath" if v.kind == "filepath" else "DirectoryPath"
    return type(v).__name__ if not isinstance(v, type) else "class"


def convert(value: Any, ann: Any) -> Any:
    """Check a decoded literal against a CON-2 annotation; builds typed paths (GRM-3)."""
    if ann is inspect.Parameter.empty or ann is typing.Any or ann is object:
        return _materialise(value)
    if ann is None or ann is type(None):
        if value is None:
            return None
        raise _Mismatch("None", _tname(value))
    origin, args = typing.get_origin(ann), typing.get_args(ann)
    import types as pytypes

    if origin in (typing.Union, pytypes.UnionType):
        last: _Mismatch | None = None
        for a in args:
            try:
                return convert(value, a)
            except _Mismatch as exc:
                last = exc
        raise _Mismatch(" or ".join(_ann_name(a) for a in args), last.got if last else _tname(value))
    if isinstance(ann, type) and ann.__name__ in ("FilePath", "DirectoryPath") and issubclass(ann, str):
        if isinstance(value, PathLit):
            if (value.kind == "filepath") != (ann.__name__ == "FilePath"):
                raise _Mismatch(ann.__name__, _tname(value))
            return ann(value.text)
        if isinstance(value, str):
            return ann(value)
        raise _Mismatch(ann.__name__, _tname(value))
    if ann is bool:
        if type(value) is bool:
            return value
        raise _Mismatch("bool", _tname(value))
    if ann is int:
        if type(value) is int:
            return value
        raise _Mismatch("int", _tname(value))
    if ann is float:
        if type(value) in (int, float):
            return value
        raise _Mismatch("float", _tname(value))
    if ann is str:
        if isinstance(value, str):
            return value
        if isinstance(value, PathLit):
            return _materialise(value)
        raise _Mismatch("str", _tname(value))
    if ann is type or origin is type:
        try:
            from clauz3 import Row
        except ImportError:  # pragma: no cover
            Row = object
        if isinstance(value, type) and issubclass(value, Row):
            if args and isinstance(args[0], type) and value is not args[0] and not issubclass(value, args[0]):
                raise _Mismatch(_ann_name(ann), value.__name__)
            return value
        raise _Mismatch(_ann_name(ann), _tname(value))
    containers: dict[type, type] = {list: list, tuple: tuple, set: set, frozenset: set, dict: dict}
    base = origin or ann
    if base in containers:
        want = containers[base]
        if base is frozenset and isinstance(value, set):
            pass
        elif not isinstance(value, want) or isinstance(value, type):
            raise _Mismatch(_ann_name(ann), _tname(value))
        if base is dict:
            assert isinstance(value, dict)  # want is dict, tested above
            kt, vt = (*args, typing.Any, typing.Any)[:2] if args else (typing.Any, typing.Any)
            return {convert(k, kt): convert(v, vt) for k, v in value.items()}
        et = args[0] if args else typing.Any
        if base is tuple and args and not (len(args) == 2 and args[1] is Ellipsis):
            if len(args) != len(value):
                raise _Mismatch(_ann_name(ann), f"a tuple of {len(value)}")
            return tuple(convert(v, a) for v, a in zip(value, args, strict=True))
        items = [convert(v, et) for v in value]
        return {list: list, tuple: tuple, set: set, frozenset: frozenset, dict: dict}[base](items)
    return _materialise(value)


def _materialise(value: Any) -> Any:
    if isinstance(value, PathLit):
        from clauz3.vocabulary import paths

        return (paths.FilePath if value.kind == "filepath" else paths.DirectoryPath)(value.text)
    if isinstance(value, list):
        return [_materialise(v) for v in value]
    if isinstance(value, tuple):
        return tuple(_materialise(v) for v in value)
    if isinstance(value, dict):
        return {k: _materialise(v) for k, v in value.items()}
    return value


def _ann_name(ann: Any) -> str:
    if isinstance(ann, type):
        return ann.__name__
    return str(ann).replace("typing.", "")


def jsonable(value: Any, ctx: ProgramContext) -> Any:
    """Guarantee.args form: typed paths as str, Row classes as keys, sets sorted, tuples as lists."""
    if isinstance(value, type):
        return ctx.layer.row_key(value) or value.__name__
    if isinstance(value, str):
        return str(value)
    if isinstance(value, (list, tuple)):
        return [jsonable(v, ctx) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted((jsonable(v, ctx) for v in value), key=repr)
    if isinstance(value, dict):
        return {str(k): jsonable(v, ctx) for k, v in value.items()}
    return value
