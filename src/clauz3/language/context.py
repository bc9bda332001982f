"""Program-wide checking state and a stable view of the loaded layer.

:class:`LayerView` is the one place that reads the ``Layer`` object and the vocabulary's
registries (docs/internals.md), so a change in their shape touches only this module.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from clauz3.language import ir
from clauz3.language.diagnostics import Diagnostics
from clauz3.vocabulary.meta import library_name

if TYPE_CHECKING:
    from clauz3.language.layer import Layer


def _as_dict(value: Any) -> dict[str, Any]:
    if value is None:
        return {}
    if isinstance(value, dict):
        return dict(value)
    out: dict[str, Any] = {}
    for item in value:
        name = getattr(item, "name", None) or getattr(item, "key", None)
        if name is not None:
            out[str(name)] = item
    return out


def domain_of(module: str) -> str | None:
    lib = library_name(module)
    return lib.replace(".", "/") if lib else None


def trusted_package_of(module: str) -> str | None:
    parts = module.split(".")
    if "trusted" in parts and parts[0] == "tools":
        return ".".join(parts[: parts.index("trusted") + 1])
    return None


class LayerView:
    """Lookups over the layer: effects, helpers, rows, events, fluents, policies, modules."""

    def __init__(self, layer: Layer) -> None:
        self.layer = layer
        self.fingerprint = str(getattr(layer, "fingerprint", "") or "")
        self.effects: dict[str, Any] = dict(sorted(_as_dict(getattr(layer, "effects", {})).items()))
        self.modules: dict[str, Any] = _as_dict(getattr(layer, "modules", {}))
        self.solvers: dict[str, Any] = _as_dict(getattr(layer, "solvers", None))
        self.fluents: dict[str, Any] = _as_dict(getattr(layer, "fluents", None))
        self.events: dict[str, Any] = _as_dict(getattr(layer, "events", None))
        self.rows: dict[str, Any] = _as_dict(getattr(layer, "rows", None))
        contracts = getattr(layer, "contracts", None)
        if not contracts:
            try:
                from clauz3.vocabulary import contracts as _spec

                contracts = dict(getattr(_spec, "CONTRACTS", {}))
            except ImportError:
                contracts = {}
        self.contracts: dict[str, Any] = dict(sorted(_as_dict(contracts).items()))
        if not self.solvers:
            try:
                from clauz3.vocabulary import contracts as _spec

                self.solvers = dict(getattr(_spec, "SOLVERS", {}))
            except ImportError:
                pass
        if not self.fluents:
            try:
                from clauz3.vocabulary import fluent as _fluent

                self.fluents = dict(getattr(_fluent, "FLUENTS", {}))
            except ImportError:
                pass
        self.policies = getattr(layer, "policies", None) or {}
        self._effect_ids: dict[int, str] = {}
        for name, fn in self.effects.items():
            self._effect_ids[id(fn)] = name
            meta = getattr(fn, "__clauz3__", None)
            original = getattr(meta, "original", None)
            if original is not None:
                self._effect_ids[id(original)] = name
        self._contract_ids: dict[int, str] = {id(m.fn): k for k, m in self.contracts.items()}
        self._row_keys: dict[int, str] = {}
        for key, cls in self.rows.items():
            self._row_keys[id(cls)] = key
        self.trusted_packages: list[str] = sorted({p for p in (trusted_package_of(m) for m in self.modules)
                                                    if p})
        for root in getattr(layer, "trusted_roots", ()) or ():
            pkg = self._package_of_root(root)
            if pkg and pkg not in self.trusted_packages:
                self.trusted_packages.append(pkg)
        self.trusted_packages.sort()
        self.import_roots = [str(r) for r in (getattr(layer, "import_roots", ()) or ())]

    @staticmethod
    def _package_of_root(root: Any) -> str | None:
        parts = str(root).rstrip("/").split("/")
        if "tools" in parts:
            idx = len(parts) - 1 - parts[::-1].index("tools")
            return ".".join(parts[idx:])
        return None

    # ------------------------------------------------------------------------ identification

    def effect_name(self, obj: Any) -> str | None:
        return self._effect_ids.get(id(obj))

    def contract_key(self, obj: Any) -> str | None:
        return self._contract_ids.get(id(obj))

    def row_key(self, cls: Any) -> str | None:
        if not isinstance(cls, type):
            return None
        key = self._row_keys.get(id(cls))
        if key:
            return key
        try:
            import clauz3

            row_base = getattr(clauz3, "Row", None)
        except ImportError:
            row_base = None
        if row_base is not None and issubclass(cls, row_base) and cls is not row_base:
            key = f"{cls.__module__}.{cls.__qualname__}"
            self._row_keys[id(cls)] = key
            self.rows.setdefault(key, cls)
            return key
        return None

    def event_key(self, cls: Any) -> str | None:
        for key, c in self.events.items():
            if c is cls:
                return key
        try:
            from clauz3.vocabulary.events import Event
        except ImportError:
            return None
        if isinstance(cls, type) and issubclass(cls, Event) and cls is not Event:
            key = f"{cls.__module__}.{cls.__qualname__}"
            self.events.setdefault(key, cls)
            return key
        return None

    def module(self, name: str) -> Any:
        return self.modules.get(name) or sys.modules.get(name)

    def is_trusted_module(self, name: str) -> bool:
        return any(name == p or name.startswith(p + ".") for p in self.trusted_packages)

    def effect_by_text(self, text: str) -> list[str]:
        """Effects a string target names: the qualified name, else a unique short name."""
        if text in self.effects:
            return [text]
        return [q for q in self.effects if q.rsplit(".", 1)[-1] == text or q.endswith("." + text)]

    def policy_list(self) -> list[tuple[str, Any]]:
        """(domain, policy) pairs in domain order, then declaration order."""
        out: list[tuple[str, Any]] = []
        pol = self.policies
        if isinstance(pol, dict):
            for dom in sorted(pol):
                items = pol[dom]
                if not isinstance(items, (list, tuple)):
                    items = [items]
                out.extend((dom, p) for p in items)
        else:
            for p in pol:
                dom = getattr(p, "domain", None)
                out.append((str(dom), p))
        return out


@dataclass
class Source:
    """A file's text, split for segment extraction (ast offsets are UTF-8 bytes)."""

    path: str
    text: str
    lines: list[bytes] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.lines = [ln.encode() for ln in self.text.splitlines(keepends=True)]

    def segment(self, node: ast.AST) -> str:
        try:
            lineno, end = node.lineno - 1, node.end_lineno - 1  # type: ignore[attr-defined]  # not every AST node has positions; the except below answers for those
            col, ecol = node.col_offset, node.end_col_offset  # type: ignore[attr-defined]  # not every AST node has positions; the except below answers for those
            if lineno == end:
                return self.lines[lineno][col:ecol].decode()
            parts = [self.lines[lineno][col:], *self.lines[lineno + 1 : end], self.lines[end][:ecol]]
            return b"".join(parts).decode()
        except (AttributeError, IndexError, UnicodeDecodeError, TypeError):
            return ""

    def col(self, node: ast.AST) -> int:
        """1-based column in characters."""
        try:
            line = self.lines[node.lineno - 1]  # type: ignore[attr-defined]  # not every AST node has positions; the except below answers for those
            return len(line[: node.col_offset].decode(errors="replace")) + 1  # type: ignore[attr-defined]  # not every AST node has positions; the except below answers for those
        except (AttributeError, IndexError):
            return int(getattr(node, "col_offset", 0)) + 1


@dataclass
class Limits:
    unrolled_total: int = 0
    inlined_sites: int = 0


EffectBuilder = Callable[["ProgramContext", str], "ir.Effect | None"]
RowAdder = Callable[["ProgramContext", str], None]


class ProgramContext:
    """State shared by every function compiled for one program."""

    # Set later, and read with getattr until then (declared here for the type checker only).
    guarantee_checker: object  # the Guarantees compiler (guarantees.py imports this module, not the reverse)
    _iter_reported: int  # by a loop that first passes the program's iteration limit

    def __init__(self, layer: LayerView, entry: Source, diags: Diagnostics, target: str,
                 allow_imports: tuple[str, ...], build_effect: EffectBuilder, add_row: RowAdder) -> None:
        self.layer = layer
        # The compilers above this module (effects.py) are handed in, so context.py imports none of them.
        self._build_effect = build_effect
        self._add_row = add_row
        self.entry = entry
        self.diags = diags
        self.root_diags = diags
        self.target = target
        self.allow_imports = allow_imports
        self.functions: dict[str, ir.Function] = {}
        self.effects: dict[str, ir.Effect] = {}
        self.rows: dict[str, ir.RowSchema] = {}
        self.sites: dict[tuple[str, int, int], int] = {}
        self.next_site = 0
        self.limits = Limits()
        self.calls: dict[str, set[str]] = {}  # function key → helper keys it calls
        self.effect_calls: dict[str, set[str]] = {}  # function key → effects it calls
        self.compiling: list[str] = []
        self.sources: dict[str, Source] = {entry.path: entry}
        self.entry_rows: dict[str, type] = {}
        self.events: dict[str, ir.EventClass] = {}
        self.fluents: dict[str, ir.Fluent] = {}
        self.bad_returns: dict[str, str] = {}
        self._effects_tried: set[str] = set()
        self.inliner: Any = None

    def effect(self, name: str) -> ir.Effect | None:
        """The compiled effect ``name`` (built once; layer problems are reported once)."""
        if name not in self._effects_tried:
            self._effects_tried.add(name)
            # Layer diagnostics must survive loop re-analysis: report them to the outermost sink.
            saved, self.diags = self.diags, self.root_diags
            try:
                eff = self._build_effect(self, name)
            finally:
                self.diags = saved
            if eff is not None:
                self.effects[name] = eff
        return self.effects.get(name)

    def path_predicate(self, name: str) -> str:
        return str(self.inliner.path_predicate(name))

    def ensure_row(self, key: str) -> None:
        self._add_row(self, key)

    def site_for(self, file: str, line: int, col: int) -> int:
        key = (file, line, col)
        if key not in self.sites:
            self.sites[key] = self.next_site
            self.next_site += 1
        return self.sites[key]

    def source_of(self, path: str) -> Source | None:
        if path not in self.sources:
            try:
                with open(path, encoding="utf-8") as fh:
                    self.sources[path] = Source(path, fh.read())
            except (OSError, UnicodeDecodeError):
                return None
        return self.sources[path]
