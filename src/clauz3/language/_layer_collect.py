"""Collecting a loaded layer's vocabulary and validating it (01 EFF-1, COV-1, MOCK-1).

Runs after every trusted module imported: reads effects, helpers, contracts, solvers, fluents,
event and row classes from the modules, checks every decorator on a module-level ``def`` that
carries clauz3 metadata against the allowed set (by resolving the decorator expression in the
module's namespace), and resolves the domain policies.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import FunctionType, ModuleType
from typing import Any, cast

from clauz3.language._layer_scan import ScanError, TrustedFile, module_level_defs
from clauz3.vocabulary.meta import CONTRACTS, SOLVERS, ContractMeta, SolverMeta, get_meta

ALLOWED_TEXT = ("trusted, mock, requires, ensures, performs, clauz3.fluent.effect, solver, contract, protected, "
                "reads_data and deal.pre/post/ensure/has/raises/chain")


@dataclass(frozen=True)
class LayerPolicy:
    """A validated ``domain_policy``: names resolved to effect and contract keys."""

    domain: str
    when_used: tuple[str, ...]  # qualified effect names
    recommended: tuple[str, ...]  # contract keys <module>.<qualname>
    required: tuple[str, ...]
    label: str | None
    file: str
    line: int


def allowed_decorators() -> list[object]:
    import clauz3
    from clauz3.vocabulary import deal_spellings as _deal
    from clauz3.vocabulary import events, fluent

    allowed: list[object] = [
        clauz3.trusted, clauz3.mock, clauz3.requires, clauz3.ensures, clauz3.solver, clauz3.contract,
        events.performs, fluent.effect, clauz3.protected, clauz3.reads_data,
    ]
    allowed.extend(_deal.SHIMS[name] for name in _deal.ALLOWED)
    deal = sys.modules.get("deal")  # never import deal just to compare against it
    if deal is not None:
        allowed.extend(getattr(deal, name) for name in _deal.ALLOWED if hasattr(deal, name))
    return allowed


def _resolve(expr: ast.expr, namespace: Mapping[str, Any]) -> Any:
    if isinstance(expr, ast.Call):
        expr = expr.func
    if isinstance(expr, ast.Name):
        return namespace.get(expr.id, _NOTHING)
    if isinstance(expr, ast.Attribute):
        base = _resolve(expr.value, namespace)
        if base is _NOTHING:
            return _NOTHING
        return getattr(base, expr.attr, _NOTHING)
    return _NOTHING


_NOTHING = object()


def check_decorators(tf: TrustedFile, module: ModuleType, allowed: list[object]) -> None:
    """EFF-1: only clauz3 decorators (and the deal spellings) on trusted functions and helpers."""
    namespace = vars(module)
    for node in module_level_defs(tf.tree):
        obj = namespace.get(node.name)
        meta = get_meta(obj)
        contract = getattr(obj, "__clauz3_contract__", None)
        targets = [_resolve(d, namespace) for d in node.decorator_list]
        ours = [any(t is a for a in allowed) for t in targets]
        if meta is None and contract is None and not any(ours):
            continue
        for deco, ok in zip(node.decorator_list, ours, strict=True):
            if not ok:
                text = ast.get_source_segment(tf.source, deco) or "?"
                raise ScanError(
                    "layer-error",
                    f"decorator @{text} on {node.name} is not allowed on trusted functions (allowed: {ALLOWED_TEXT})",
                    tf.path, deco.lineno, deco.col_offset + 1,
                )
        if isinstance(node, ast.AsyncFunctionDef):
            raise ScanError("layer-error", f"{node.name} must be a synchronous def", tf.path, node.lineno)
        if meta is not None:
            if obj is not meta.wrapper:
                raise ScanError(
                    "layer-error", f"{node.name} is wrapped by a decorator that is not a clauz3 decorator",
                    tf.path, node.lineno,
                )
            if len(node.decorator_list) != len(meta.decorators):
                raise ScanError(
                    "layer-error",
                    f"{node.name}: clauz3 decorators must be written as decorators on its def "
                    f"(found {len(node.decorator_list)}, applied {len(meta.decorators)})",
                    tf.path, node.lineno,
                )


def _where(fn: Any) -> tuple[str, int]:
    code = getattr(fn, "__code__", None)
    return (code.co_filename, code.co_firstlineno) if code else ("?", 1)


def collect(
    files: list[TrustedFile], modules: dict[str, ModuleType]
) -> dict[str, Any]:
    """Effects, helpers, contracts, solvers, fluents, events and rows defined in the layer's modules."""
    from clauz3.vocabulary import fluent as fluent_mod
    from clauz3.vocabulary.events import Event
    from clauz3.vocabulary.rows import Row

    effects: dict[str, Callable[..., Any]] = {}
    helpers: dict[str, Callable[..., Any]] = {}
    events: dict[str, type] = {}
    rows: dict[str, type] = {}
    for tf in files:
        module = modules[tf.module]
        for name, obj in vars(module).items():
            meta = get_meta(obj)
            if meta is not None and meta.wrapper is obj:
                original = meta.original
                if original.__module__ not in modules:
                    continue
                key = f"{original.__module__}.{original.__name__}"
                file, line = _where(original)
                if "." in original.__qualname__:
                    raise ScanError("layer-error", f"{original.__qualname__} must be a module-level function", file, line)
                if meta.mock and not meta.trusted:
                    raise ScanError("layer-error", f"@mock on {key} needs @trusted (mock marks an effect)", file, line)
                if not meta.trusted and (meta.performs is not None or meta.fluent_effect is not None):
                    raise ScanError(
                        "layer-error", f"@performs / fluent.effect on {key} needs @trusted (they describe effects)",
                        file, line,
                    )
                bucket = effects if meta.trusted else helpers
                old = bucket.get(key)
                if old is not None and old is not obj:
                    raise ScanError("layer-error", f"conflicting definitions of {key}", file, line)
                bucket[key] = cast("Callable[..., Any]", obj)  # obj is meta.wrapper (tested above)
            elif isinstance(obj, FunctionType) and obj.__module__ == tf.module and "." not in obj.__qualname__:
                if getattr(obj, "__clauz3_contract__", None) is None and name == obj.__name__:
                    helpers.setdefault(f"{obj.__module__}.{obj.__qualname__}", obj)
            elif isinstance(obj, type) and obj.__module__ == tf.module:
                key = f"{obj.__module__}.{obj.__qualname__}"
                if issubclass(obj, Event) and obj is not Event:
                    events[key] = obj
                elif issubclass(obj, Row) and obj is not Row:
                    rows[key] = obj
    contracts: dict[str, ContractMeta] = {k: m for k, m in CONTRACTS.items() if m.module in modules}
    solvers: dict[str, SolverMeta] = {
        k: s for k, s in SOLVERS.items() if getattr(get_meta(s.fn), "module", None) in modules
    }
    fluents = {k: d for k, d in fluent_mod.FLUENTS.items() if d.module in modules}
    return {
        "effects": dict(sorted(effects.items())),
        "helpers": dict(sorted(helpers.items())),
        "contracts": dict(sorted(contracts.items())),
        "solvers": dict(sorted(solvers.items())),
        "fluents": dict(sorted(fluents.items())),
        "events": dict(sorted(events.items())),
        "rows": dict(sorted(rows.items())),
    }


def resolve_in(name: str, effects: Mapping[str, Any]) -> list[str]:
    if name in effects:
        return [name]
    return [q for q in effects if q.endswith("." + name)]


def collect_policies(
    domain: str, package: str, modules: dict[str, ModuleType], effects: Mapping[str, Any],
    contracts: Mapping[str, ContractMeta],
) -> tuple[LayerPolicy, ...]:
    """COV-1 for one domain: ``<package>.policy.POLICY`` validated against the domain's names."""
    from clauz3.vocabulary.policy import MAX_POLICIES, DomainPolicy

    module = modules.get(f"{package}.policy")
    if module is None or not hasattr(module, "POLICY"):
        return ()
    raw = module.POLICY
    file = str(getattr(module, "__file__", "?"))
    items = list(raw) if isinstance(raw, (list, tuple)) else [raw]
    if len(items) > MAX_POLICIES:
        raise ScanError("limit-exceeded", f"{package}.policy.POLICY holds {len(items)} policies, more than {MAX_POLICIES}", file)
    own_effects = {q: fn for q, fn in effects.items() if q.startswith(package + ".")}
    cmod = modules.get(f"{package}.contracts")
    out: list[LayerPolicy] = []
    for item in items:
        if not isinstance(item, DomainPolicy):
            raise ScanError("layer-error", f"{package}.policy.POLICY must be domain_policy(...) or a list of them", file)
        line = item.line
        used: list[str] = []
        for name in item.when_used:
            found = resolve_in(name, own_effects)
            if not found:
                raise ScanError("layer-error", f"policy when_used names {name!r}, not an effect of domain {domain}", item.file, line)
            if len(found) > 1:
                raise ScanError("layer-error", f"policy when_used name {name!r} is ambiguous: {', '.join(found)}", item.file, line)
            used.append(found[0])
        resolved: dict[str, list[str]] = {"recommended": [], "required": []}
        for kind in ("recommended", "required"):
            for name in getattr(item, kind):
                helper = getattr(cmod, name, None) if cmod is not None and name.isidentifier() else None
                meta = getattr(helper, "__clauz3_contract__", None)
                if not isinstance(meta, ContractMeta) or meta.key not in contracts:
                    raise ScanError(
                        "layer-error",
                        f"policy {kind} names {name!r}, not a contract helper in {package}.contracts",
                        item.file, line,
                    )
                if kind == "required" and not _nullary(meta.fn):
                    raise ScanError(
                        "layer-error", f"policy required helper {name!r} must take no arguments", item.file, line
                    )
                resolved[kind].append(meta.key)
        out.append(
            LayerPolicy(domain, tuple(used), tuple(resolved["recommended"]), tuple(resolved["required"]), item.label,
                        item.file, line)
        )
    return tuple(out)


def _nullary(fn: Callable[..., Any]) -> bool:
    from clauz3.vocabulary.decorators import params_of

    return all(has_default for _n, _k, has_default, _d in params_of(fn))
