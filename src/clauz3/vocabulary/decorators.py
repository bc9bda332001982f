"""The public decorators of trusted code and agent programs (01 §2.2, §2.3, §2.5).

Every clauz3 decorator on one function shares a single wrapper and a single ``TrustedMeta``
(``fn.__clauz3__``), so they compose in any order. The wrapper enforces ``requires``/``ensures``
at run time for every caller (EFF-3) and exposes the undecorated function as ``__wrapped__`` so
``inspect.signature`` of the decorated object equals the original's (EFF-1).
"""

from __future__ import annotations

from types import FunctionType

from clauz3.base.astparse import parse_ast
from clauz3.base.errors import PostconditionError, PreconditionError
from clauz3.vocabulary.meta import (
    CONTRACTS,
    SOLVERS,
    ConditionMeta,
    ContractMeta,
    ContractSpec,
    SolverMeta,
    TrustedMeta,
    get_meta,
    lambda_source,
    library_name,
)

_CO_VARARGS = 0x04
_CO_VARKEYWORDS = 0x08
_CO_GENERATOR = 0x20
_CO_COROUTINE = 0x80
_CO_ITERABLE_COROUTINE = 0x100
_CO_ASYNC_GENERATOR = 0x200

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, TypeVar

    F = TypeVar("F", bound=Callable[..., Any])
    # (name, kind, has_default, default)
    Param = tuple[str, str, bool, Any]


def params_of(fn: Callable[..., Any]) -> tuple[Param, ...]:
    """Parameters read from the code object (cheaper than ``inspect`` and exact about kinds)."""
    code = fn.__code__
    npos = code.co_argcount
    names = code.co_varnames[: npos + code.co_kwonlyargcount]
    defaults = fn.__defaults__ or ()
    kwdefaults = fn.__kwdefaults__ or {}
    first_default = npos - len(defaults)
    out: list[Param] = []
    for i, name in enumerate(names[:npos]):
        kind = "positional_only" if i < code.co_posonlyargcount else "positional_or_keyword"
        if i >= first_default:
            out.append((name, kind, True, defaults[i - first_default]))
        else:
            out.append((name, kind, False, None))
    for name in names[npos:]:
        if name in kwdefaults:
            out.append((name, "keyword_only", True, kwdefaults[name]))
        else:
            out.append((name, "keyword_only", False, None))
    return tuple(out)


def has_variadic(fn: Callable[..., Any]) -> bool:
    return bool(fn.__code__.co_flags & (_CO_VARARGS | _CO_VARKEYWORDS))


def is_literal(value: Any) -> bool:
    """Literal defaults (EFF-1): scalars and displays of literals."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return True
    if isinstance(value, (tuple, list, set, frozenset)):
        return all(is_literal(v) for v in value)
    if isinstance(value, dict):
        return all(is_literal(k) and is_literal(v) for k, v in value.items())
    return False


def _describe_params(params: tuple[Param, ...]) -> str:
    parts: list[str] = []
    seen_kwonly = False
    for i, (name, kind, has_default, default) in enumerate(params):
        if kind == "keyword_only" and not seen_kwonly:
            parts.append("*")
            seen_kwonly = True
        parts.append(f"{name}={default!r}" if has_default else name)
        nxt = params[i + 1][1] if i + 1 < len(params) else None
        if kind == "positional_only" and nxt != "positional_only":
            parts.append("/")
    return "(" + ", ".join(parts) + ")"


def _same_params(a: tuple[Param, ...], b: tuple[Param, ...]) -> bool:
    if len(a) != len(b):
        return False
    for (n1, k1, d1, v1), (n2, k2, d2, v2) in zip(a, b, strict=True):
        if n1 != n2 or k1 != k2 or d1 != d2:
            return False
        if d1 and (type(v1) is not type(v2) or v1 != v2):
            return False
    return True


# ------------------------------------------------------------------------------ shared wrapper


def _adopt(obj: Any, spelling: str) -> TrustedMeta:
    """The meta of ``obj``: existing (a clauz3 wrapper) or new (a plain function, now wrapped)."""
    meta = get_meta(obj)
    if meta is not None:
        if meta.wrapper is obj:
            return meta
        raise TypeError(
            f"@{spelling} on {meta.qualname}: the function is wrapped by a decorator that is not a clauz3 "
            "decorator (only trusted, mock, requires, ensures, performs, fluent.effect, solver, protected, "
            "reads_data and the deal spellings may wrap a trusted function)"
        )
    if not isinstance(obj, FunctionType):
        raise TypeError(f"@{spelling} applies to a function defined with def, not to {type(obj).__name__} {obj!r}")
    qualname = obj.__qualname__
    if obj.__name__ == "<lambda>":
        raise TypeError(f"@{spelling} applies to a function defined with def, not to a lambda")
    flags = obj.__code__.co_flags
    if flags & (_CO_COROUTINE | _CO_ITERABLE_COROUTINE | _CO_ASYNC_GENERATOR | _CO_GENERATOR):
        raise TypeError(f"@{spelling} on {qualname}: trusted functions must be plain synchronous functions")
    if has_variadic(obj):
        raise TypeError(f"@{spelling} on {qualname}: *args/**kwargs are not allowed on trusted functions")
    for name, _kind, has_default, default in params_of(obj):
        if has_default and not is_literal(default):
            raise TypeError(f"@{spelling} on {qualname}: default of parameter {name!r} must be a literal")
    meta = TrustedMeta(obj)
    wrapper = _make_wrapper(obj, meta)
    meta.wrapper = wrapper
    wrapper.__clauz3__ = meta  # type: ignore[attr-defined]  # the wrapper carries its metadata as a function attribute
    return meta


def _make_wrapper(fn: Callable[..., Any], meta: TrustedMeta) -> Callable[..., Any]:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        # Conditions mirror the function's parameters exactly (EFF-2), so they take the call's
        # arguments as given and see the same defaults as the body.
        for cond in meta.requires:
            if not cond.fn(*args, **kwargs):
                _fail(meta, cond, PreconditionError, "precondition")
        result = fn(*args, **kwargs)
        for cond in meta.ensures:
            ok = cond.fn(result) if cond.result_only else cond.fn(*args, result=result, **kwargs)
            if not ok:
                _fail(meta, cond, PostconditionError, "postcondition")
        return result

    for attr in ("__module__", "__name__", "__qualname__", "__doc__"):
        setattr(wrapper, attr, getattr(fn, attr))
    wrapper.__annotations__ = fn.__annotations__
    wrapper.__dict__.update(fn.__dict__)
    wrapper.__wrapped__ = fn  # type: ignore[attr-defined]  # functools.wraps's attribute, set by hand (the other wraps fields are copied above)
    return wrapper


def _fail(meta: TrustedMeta, cond: ConditionMeta, default: type[BaseException], what: str) -> None:
    message = cond.message
    if message is None:
        message = f"{what} of {meta.qualname} failed: {lambda_source(cond.fn) or '<lambda>'}"
    raise (cond.exception or default)(message)


# ----------------------------------------------------------------------------------- lambdas


def check_inline_lambda(pred: Any, spelling: str) -> None:
    if not isinstance(pred, FunctionType) or pred.__name__ != "<lambda>":
        what = getattr(pred, "__qualname__", type(pred).__name__)
        raise TypeError(f"@{spelling} takes an inline lambda, not {what}")


def check_mirror(pred: Callable[..., Any], target: Callable[..., Any], spelling: str, *, allow_result: bool) -> bool:
    """EFF-2: ``pred``'s parameters mirror ``target``'s; returns True for the ``lambda result:`` form."""
    want = params_of(target)
    got = params_of(pred)
    qualname = getattr(target, "__qualname__", "?")
    if has_variadic(pred):
        raise TypeError(f"@{spelling} lambda on {qualname} must not take *args/**kwargs")
    if [p[0] for p in got] == ["_"] and [p[0] for p in want] != ["_"]:
        raise TypeError(
            f"@{spelling} lambda on {qualname} takes a lone `_`; name the parameters {_describe_params(want)}"
        )
    if allow_result:
        if len(got) == 1 and got[0][0] == "result" and got[0][1] != "positional_only" and not got[0][2]:
            return True
        if got and got[-1][0] == "result" and got[-1][1] != "positional_only":
            if _same_params(got[:-1], want):
                return False
        raise TypeError(
            f"@{spelling} lambda on {qualname} must be `lambda result: …` or mirror the parameters "
            f"{_describe_params(want)} plus a final `result`; got {_describe_params(got)}"
        )
    if not _same_params(got, want):
        raise TypeError(
            f"@{spelling} lambda on {qualname} must mirror its parameters exactly (names, kinds, order, "
            f"defaults): expected {_describe_params(want)}, got {_describe_params(got)}"
        )
    return False


def check_named_subset(pred: Callable[..., Any], target: Callable[..., Any], spelling: str) -> None:
    """EVT-2 (00 DEC-14): ``performs`` names, by name, the effect parameters its events use."""
    qualname = getattr(target, "__qualname__", "?")
    if has_variadic(pred):
        raise TypeError(f"@{spelling} lambda on {qualname} must not take *args/**kwargs")
    want = {p[0] for p in params_of(target)}
    # A default on a lambda parameter is never used (events take the call's bound arguments), so
    # the fully mirrored form written before EVT-2 allowed subsets stays valid.
    for name, _, _, _ in params_of(pred):
        if name not in want:
            raise TypeError(f"@{spelling} lambda on {qualname} names `{name}`, which is not a parameter of "
                            f"{qualname} (its parameters: {', '.join(sorted(want)) or 'none'})")


# --------------------------------------------------------------------------- public decorators


def _wrapper_of(meta: TrustedMeta, fn: F) -> F:
    """The wrapper _adopt made for ``fn``: it stands in for fn, with fn's signature."""
    return meta.wrapper  # type: ignore[return-value]  # a wrapper with fn's signature, set by _adopt

def _flag(spelling: str, attr: str) -> Callable[[F], F]:
    def decorate(fn: F) -> F:
        meta = _adopt(fn, spelling)
        if getattr(meta, attr):
            raise TypeError(f"@{spelling} applied twice to {meta.qualname}")
        setattr(meta, attr, True)
        meta.decorators.insert(0, spelling)
        return _wrapper_of(meta, fn)

    return decorate


def trusted(fn: F | None = None, /) -> Any:
    """Mark an effect, the side-effect boundary: ``@trusted`` or ``@trusted()``."""
    if fn is None:
        return _flag("trusted", "trusted")
    if not callable(fn):
        raise TypeError(f"@trusted takes no arguments: write @trusted or @trusted(), not @trusted({fn!r})")
    return _flag("trusted", "trusted")(fn)


def protected(**kinds: str) -> Callable[[F], F]:
    """Declare effect parameters whose values the approval card traces to their source (issue 20).

    ``@protected(to="recipient", body="text")``: each keyword names a parameter of the effect and what
    it holds, one of ``recipient``, ``url``, ``account``, ``amount``, ``path`` or ``text``. A literal
    that reaches such a parameter is shown as from the person's messages, from data the agent read
    (naming it), or new; in ``text`` every link, address, account, phone number and long number is.
    """
    from clauz3.base.provenance import PROTECTED_KINDS

    if not kinds:
        raise TypeError("@protected names at least one parameter, e.g. @protected(to=\"recipient\")")
    for name, kind in kinds.items():
        if kind not in PROTECTED_KINDS:
            raise TypeError(f"@protected({name}={kind!r}): the kind must be one of {', '.join(PROTECTED_KINDS)}")

    def decorate(fn: F) -> F:
        meta = _adopt(fn, "protected")
        if meta.protected:
            raise TypeError(f"@protected applied twice to {meta.qualname}")
        names = {p[0] for p in params_of(meta.original)}
        for name in kinds:
            if name not in names:
                raise TypeError(f"@protected on {meta.qualname}: it has no parameter {name!r}")
        meta.protected = dict(kinds)
        meta.decorators.insert(0, "protected")
        return _wrapper_of(meta, fn)

    return decorate


def reads_data(template: str) -> Callable[[F], F]:
    """Name what an effect reads, for the card's provenance notes: ``@reads_data("the web page {url}")``.

    ``{param}`` placeholders take the literal argument of the call when the program passes one.
    """
    from clauz3.vocabulary.describe import parse_template

    if not isinstance(template, str) or not template.strip() or len(template) > 200:
        raise TypeError("@reads_data takes one non-empty str of at most 200 characters")
    try:
        fields = [name for _, name in parse_template(template) if name is not None]
    except ValueError as exc:
        raise TypeError(f"@reads_data({template!r}): {exc}") from None

    def decorate(fn: F) -> F:
        meta = _adopt(fn, "reads_data")
        if meta.reads_data is not None:
            raise TypeError(f"@reads_data applied twice to {meta.qualname}")
        names = {p[0] for p in params_of(meta.original)}
        for name in fields:
            if name not in names:
                raise TypeError(f"@reads_data on {meta.qualname}: {{{name}}} is not one of its parameters")
        meta.reads_data = template
        meta.decorators.insert(0, "reads_data")
        return _wrapper_of(meta, fn)

    return decorate


def mock(fn: F | None = None, /) -> Any:
    """Declare an effect simulated (05 MOCK-1); grants and changes nothing."""
    if fn is None:
        return _flag("mock", "mock")
    if not callable(fn):
        raise TypeError(f"@mock takes no arguments: write @mock or @mock(), not @mock({fn!r})")
    return _flag("mock", "mock")(fn)


def condition(
    spelling: str, predicate: Any, message: str | None = None, exception: Any = None
) -> Callable[[F], F]:
    """Shared body of ``requires``/``ensures`` and their ``deal`` spellings."""
    check_inline_lambda(predicate, spelling)
    if message is not None and not isinstance(message, str):
        raise TypeError(f"@{spelling}: message must be a str, not {type(message).__name__}")
    if exception is not None and not (isinstance(exception, type) and issubclass(exception, BaseException)):
        raise TypeError(f"@{spelling}: exception must be an exception class, not {exception!r}")
    is_pre = spelling in ("requires", "deal.pre")

    def decorate(fn: F) -> F:
        meta = _adopt(fn, spelling)
        result_only = check_mirror(predicate, meta.original, spelling, allow_result=not is_pre)
        cond = ConditionMeta(predicate, message, exception, spelling, result_only)
        (meta.requires if is_pre else meta.ensures).insert(0, cond)
        meta.decorators.insert(0, spelling)
        return _wrapper_of(meta, fn)

    return decorate


def requires(
    predicate: Callable[..., Any], *, message: str | None = None, exception: type[BaseException] | None = None
) -> Callable[[F], F]:
    """Precondition: an inline lambda mirroring the function's parameters (EFF-2)."""
    return condition("requires", predicate, message, exception)


def ensures(
    predicate: Callable[..., Any], *, message: str | None = None, exception: type[BaseException] | None = None
) -> Callable[[F], F]:
    """Postcondition: ``lambda result: …`` or the mirrored parameters plus a final ``result``."""
    return condition("ensures", predicate, message, exception)


def attach_lambda(spelling: str, attr: str, pred: Any) -> Callable[[F], F]:
    """``performs`` / ``fluent.effect``: record one mirrored lambda (at most one of each)."""
    check_inline_lambda(pred, spelling)

    def decorate(fn: F) -> F:
        meta = _adopt(fn, spelling)
        if getattr(meta, attr) is not None:
            raise TypeError(f"@{spelling} applied twice to {meta.qualname} (at most one)")
        if spelling == "performs":
            check_named_subset(pred, meta.original, spelling)
        else:
            check_mirror(pred, meta.original, spelling, allow_result=False)
        setattr(meta, attr, pred)
        meta.decorators.insert(0, spelling)
        return _wrapper_of(meta, fn)

    return decorate


def mark(spelling: str, *, trusted_marker: bool = False, markers: tuple[Any, ...] = ()) -> Callable[[F], F]:
    """A decorator that only records its spelling (``deal.has``, ``deal.raises``, ``deal.chain``)."""

    def decorate(fn: F) -> F:
        meta = _adopt(fn, spelling)
        if trusted_marker:
            meta.trusted = True
            meta.deal_markers = meta.deal_markers + markers
        meta.decorators.insert(0, spelling)
        return _wrapper_of(meta, fn)

    return decorate


def solver(name: str, *, signature: str) -> Callable[[F], F]:
    """Register the decorated function as the pure model of ``name`` (01 SOLV-1)."""
    if not isinstance(name, str) or len(name.split(".")) < 2 or not all(p.isidentifier() for p in name.split(".")):
        raise TypeError(f"@solver needs the dotted name of the modelled function (e.g. 'pkg.mod.func'), got {name!r}")
    if not isinstance(signature, str):
        raise TypeError(f"@solver signature must be a str like '(a: str) -> int', got {signature!r}")
    _parse_signature(signature)

    def decorate(fn: F) -> F:
        meta = _adopt(fn, "solver")
        if meta.solver is not None:
            raise TypeError(f"@solver applied twice to {meta.qualname}")
        entry = SolverMeta(meta.wrapper, name, signature, meta.file, meta.line)  # type: ignore[arg-type]  # _adopt always sets the wrapper
        old = SOLVERS.get(name)
        if old is not None and (old.file, old.line) != (entry.file, entry.line):
            raise ValueError(f"conflicting solver models for {name}: {old.file}:{old.line} and {entry.file}:{entry.line}")
        SOLVERS[name] = entry
        meta.solver = entry
        meta.decorators.insert(0, "solver")
        return _wrapper_of(meta, fn)

    return decorate


def _parse_signature(signature: str) -> None:
    import ast

    try:
        tree = parse_ast(f"def _model{signature.strip()}:\n    pass\n")
    except SyntaxError as exc:
        raise ValueError(f"@solver signature {signature!r} does not parse: {exc.msg}") from None
    fn = tree.body[0] if len(tree.body) == 1 else None
    if not isinstance(fn, ast.FunctionDef) or fn.returns is None:
        raise ValueError(f"@solver signature {signature!r} must look like '(a: str) -> int'")


# ----------------------------------------------------------------------- contracts, guarantees


def contract(fn: F | None = None, /, *, description: str | None = None) -> Any:
    """Register a contract helper: ``@contract``, ``@contract()`` or ``@contract(description=…)``."""
    if description is not None and not isinstance(description, str):
        raise TypeError(f"@contract description must be a str, got {type(description).__name__}")
    if fn is None:
        return lambda f: _register_contract(f, description)
    if not callable(fn):
        raise TypeError(f"@contract takes only the keyword description=…, not {fn!r}")
    return _register_contract(fn, description)


def _register_contract(fn: Any, description: str | None) -> Any:
    if not isinstance(fn, FunctionType) or fn.__name__ == "<lambda>":
        raise TypeError(f"@contract applies to a module-level function defined with def, not {fn!r}")
    qualname = fn.__qualname__
    if "." in qualname:
        raise TypeError(f"@contract on {qualname}: contract helpers must be module-level functions")
    if get_meta(fn) is not None:
        raise TypeError(f"@contract on {qualname}: a contract helper cannot also be an effect or carry conditions")
    if has_variadic(fn):
        raise TypeError(f"@contract on {qualname}: *args/**kwargs are not allowed on contract helpers")
    if description is not None:
        from clauz3.vocabulary.describe import validate_template

        validate_template(description, fn, [p[0] for p in params_of(fn)])
    code = fn.__code__
    meta = ContractMeta(
        fn, qualname, fn.__module__, description, code.co_filename, code.co_firstlineno,
        library_name(fn.__module__) or fn.__module__,
    )
    old = CONTRACTS.get(meta.key)
    if old is not None and (old.file, old.line) != (meta.file, meta.line):
        raise ValueError(f"conflicting contract registrations for {meta.key}: {old.file}:{old.line} and {meta.file}:{meta.line}")
    CONTRACTS[meta.key] = meta
    fn.__clauz3_contract__ = meta  # type: ignore[attr-defined]  # the function carries its contract metadata as an attribute
    return fn


def guarantee(*args: Any, **kwargs: Any) -> Callable[[F], F]:
    """Attach one guarantee (agent side); an identity decorator at run time (GRM-1)."""
    if kwargs or len(args) != 1:
        raise TypeError("guarantee takes exactly one positional ContractSpec, e.g. @guarantee(email.at_most(1))")
    if not isinstance(args[0], ContractSpec):
        raise TypeError(f"guarantee takes a ContractSpec, got {type(args[0]).__name__}")

    def decorate(fn: F) -> F:
        return fn

    return decorate
