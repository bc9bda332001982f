"""Metadata the public decorators leave on trusted functions (docs/internals.md).

Kept free of heavy imports: ``import clauz3`` must stay cheap (01 CORE-3), so everything that needs
``inspect``/``ast``/``linecache`` imports it lazily inside the function that needs it.
"""

from __future__ import annotations

from clauz3.base.astparse import parse_ast

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any


def _fields_repr(obj: object, names: tuple[str, ...]) -> str:
    inner = ", ".join(f"{n}={getattr(obj, n)!r}" for n in names)
    return f"{type(obj).__name__}({inner})"


class ConditionMeta:
    """One ``requires``/``ensures`` condition: the raw lambda and how a failure is reported.

    ``result_only`` is True for the ``lambda result: …`` form of a postcondition (the lambda is
    then called with the result alone, otherwise with the call's arguments plus ``result=``).
    """

    __slots__ = ("exception", "fn", "message", "result_only", "spelling")

    def __init__(
        self,
        fn: Callable[..., Any],
        message: str | None,
        exception: type[BaseException] | None,
        spelling: str,
        result_only: bool = False,
    ) -> None:
        self.fn = fn
        self.message = message
        self.exception = exception
        self.spelling = spelling
        self.result_only = result_only

    @property
    def kind(self) -> str:
        return "requires" if self.spelling in ("requires", "deal.pre") else "ensures"

    def __repr__(self) -> str:
        return _fields_repr(self, ("fn", "message", "exception", "spelling"))


class TrustedMeta:
    """``fn.__clauz3__`` of a function decorated by any clauz3 decorator (or a ``deal`` spelling).

    One meta object (and one wrapper) is shared by every clauz3 decorator on a function, so the
    decorators compose in any order: each one finds the meta on the wrapper and extends it.
    Lists are kept in source order, top to bottom (decorators apply bottom-up, so each new entry
    is inserted at the front).
    """

    __slots__ = (
        "deal_markers",
        "decorators",
        "ensures",
        "fluent_effect",
        "mock",
        "original",
        "performs",
        "protected",
        "reads_data",
        "requires",
        "solver",
        "trusted",
        "wrapper",
    )

    def __init__(self, original: Callable[..., Any]) -> None:
        self.trusted: bool = False
        self.mock: bool = False
        self.requires: list[ConditionMeta] = []
        self.ensures: list[ConditionMeta] = []
        self.performs: Callable[..., Any] | None = None
        self.fluent_effect: Callable[..., Any] | None = None
        self.decorators: list[str] = []
        self.original: Callable[..., Any] = original
        # The object the decorators return; anything else carrying this meta (a foreign wrapper
        # that copied ``__dict__`` with functools.wraps) is a decorator clauz3 does not allow.
        self.wrapper: Callable[..., Any] | None = None
        self.solver: SolverMeta | None = None
        self.deal_markers: tuple[Any, ...] = ()
        # Issue 20: parameters whose literal values the card traces to where they came from
        # (name → one of clauz3.base.provenance.PROTECTED_KINDS), and how a read of this effect is named.
        self.protected: dict[str, str] = {}
        self.reads_data: str | None = None

    @property
    def qualname(self) -> str:
        return str(getattr(self.original, "__qualname__", "?"))

    @property
    def module(self) -> str:
        return str(getattr(self.original, "__module__", "?"))

    @property
    def file(self) -> str:
        return self.original.__code__.co_filename

    @property
    def line(self) -> int:
        return self.original.__code__.co_firstlineno

    def __repr__(self) -> str:
        return _fields_repr(
            self, ("trusted", "mock", "requires", "ensures", "performs", "fluent_effect", "decorators", "original")
        )


class ContractMeta:
    """A registered contract helper (``clauz3.spec.CONTRACTS`` value, 01 CON-1)."""

    __slots__ = ("description_template", "file", "fn", "library", "line", "module", "qualname")

    def __init__(
        self,
        fn: Callable[..., Any],
        qualname: str,
        module: str,
        description_template: str | None,
        file: str,
        line: int,
        library: str,
    ) -> None:
        self.fn = fn
        self.qualname = qualname
        self.module = module
        self.description_template = description_template
        self.file = file
        self.line = line
        self.library = library

    @property
    def key(self) -> str:
        return f"{self.module}.{self.qualname}"

    def __repr__(self) -> str:
        return _fields_repr(self, ("qualname", "module", "description_template", "file", "line", "library"))


class SolverMeta:
    """A pure model registered with ``clauz3.solver`` for a non-trusted function (01 SOLV-1)."""

    __slots__ = ("file", "fn", "line", "real_name", "signature")

    def __init__(self, fn: Callable[..., Any], real_name: str, signature: str, file: str, line: int) -> None:
        self.fn = fn
        self.real_name = real_name
        self.signature = signature
        self.file = file
        self.line = line

    def __repr__(self) -> str:
        return _fields_repr(self, ("real_name", "signature", "file", "line"))


def get_meta(obj: object) -> TrustedMeta | None:
    """The clauz3 metadata of a decorated function, or None."""
    meta = getattr(obj, "__clauz3__", None)
    return meta if isinstance(meta, TrustedMeta) else None


def library_name(module: str) -> str | None:
    """CON-6 library name from a module name: ``tools.<d>.trusted…`` → ``d``, ``tools.<o>.<d>.trusted…`` → ``o.d``."""
    parts = module.split(".")
    if len(parts) >= 3 and parts[0] == "tools" and parts[2] == "trusted":
        return parts[1]
    if len(parts) >= 4 and parts[0] == "tools" and parts[3] == "trusted":
        return f"{parts[1]}.{parts[2]}"
    return None


def lambda_source(fn: Callable[..., Any]) -> str | None:
    """The exact source text of a lambda, found by the code object's column positions.

    Several lambdas on one line are told apart by the positions of their bytecode (3.11
    ``co_positions``), which lie inside exactly one ``Lambda`` node. Returns None when the source
    cannot be read or the lambda cannot be identified uniquely (never a guess).
    """
    node = lambda_node(fn)
    if node is None:
        return None
    import linecache

    code = fn.__code__
    lines = linecache.getlines(code.co_filename)
    return _segment(lines, node)


# Lambdas of each parsed file by first line, with the exact text they were parsed from. Checking a
# program reads dozens of conditions from the same contracts file; parsing it once per text instead
# of once per lambda was ~40 % of checking time. The entry is used only when the text is identical
# (compared in full, never by mtime or size), so a changed file is always parsed again. Callers only
# read the nodes (the checker compiles them into new IR), so sharing them between calls is safe.
_LAMBDAS: dict[str, tuple[str, dict[int, list[Any]]]] = {}
_LAMBDAS_MAX_FILES = 512


def _lambdas_by_line(filename: str, text: str) -> dict[int, list[Any]] | None:
    import ast

    hit = _LAMBDAS.get(filename)
    if hit is not None and hit[0] == text:
        return hit[1]
    try:
        tree = parse_ast(text)
    except (SyntaxError, ValueError):
        return None
    by_line: dict[int, list[Any]] = {}
    for node in ast.walk(tree):  # walk order, as when each lookup walked the tree itself
        if isinstance(node, ast.Lambda):
            by_line.setdefault(node.lineno, []).append(node)
    if len(_LAMBDAS) >= _LAMBDAS_MAX_FILES and filename not in _LAMBDAS:
        _LAMBDAS.pop(next(iter(_LAMBDAS)))  # the oldest file: a bound, not an eviction policy
    _LAMBDAS[filename] = (text, by_line)
    return by_line


def lambda_node(fn: Callable[..., Any]) -> Any:
    """The ``ast.Lambda`` node of ``fn`` in its file (positions as in the file), or None."""
    import linecache

    code = getattr(fn, "__code__", None)
    if code is None or getattr(fn, "__name__", "") != "<lambda>":
        return None
    lines = linecache.getlines(code.co_filename)
    if not lines:
        return None
    by_line = _lambdas_by_line(code.co_filename, "".join(lines))
    if by_line is None:
        return None
    # Real spans only: RESUME and the implicit return carry empty (0, 0) positions.
    positions = [
        (ln, col)
        for (ln, end, col, ecol) in code.co_positions()
        if ln is not None and end is not None and col is not None and ecol is not None and (end, ecol) > (ln, col)
    ]
    candidates = list(by_line.get(code.co_firstlineno, ()))
    if not candidates:
        return None
    if len(candidates) == 1:
        return candidates[0]
    hits = []
    for node in candidates:
        body = node.body
        start = (body.lineno, body.col_offset)
        end = (body.end_lineno or body.lineno, body.end_col_offset or 0)
        if positions and all(start <= p < end for p in positions):
            hits.append(node)
    # Nested lambdas: the innermost one containing every position is the one.
    if len(hits) > 1:
        hits = [h for h in hits if not any(o is not h and _inside(o, h) for o in hits)]
    return hits[0] if len(hits) == 1 else None


def _inside(inner: Any, outer: Any) -> bool:
    return (outer.lineno, outer.col_offset) <= (inner.lineno, inner.col_offset) and (
        inner.end_lineno,
        inner.end_col_offset,
    ) <= (outer.end_lineno, outer.end_col_offset)


def _segment(lines: list[str], node: Any) -> str | None:
    # ast offsets are UTF-8 byte offsets; slice bytes, not characters.
    try:
        first, last = node.lineno - 1, node.end_lineno - 1
        if first == last:
            return lines[first].encode()[node.col_offset : node.end_col_offset].decode()
        parts = [lines[first].encode()[node.col_offset :].decode()]
        parts.extend(lines[first + 1 : last])
        parts.append(lines[last].encode()[: node.end_col_offset].decode())
        return "".join(parts)
    except (IndexError, UnicodeDecodeError, TypeError):
        return None


class ContractSpec:
    """Base of every spec a contract helper returns (01 §2.6); plain data holding raw lambdas."""

    __slots__ = ()


ContractSpec.__module__ = "clauz3.spec"

# Registries filled at decoration time (docs/internals.md); ``clauz3.spec`` re-exports them.
CONTRACTS: dict[str, ContractMeta] = {}
SOLVERS: dict[str, SolverMeta] = {}
