"""A static (AST-only) reading of an authorised layer and of a program's guarantees.

The authority never imports trusted or agent code (03 LIFE-5), so everything the card and the
profile signature need — contract symbols, parameters, description templates, docstrings, file
hashes, mock declarations (05 MOCK-2), library titles — is read from source text here, through the
one trusted-source reader (``language/trusted_source``: the same files, parses and MOCK-2 statuses
``clauz3 lint`` sees; parses cached by ``(path, sha256 of the bytes read now)``, PRO-5, CARD-1).
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from clauz3.approvals.flowwords import flow_words
from clauz3.base.astparse import parse_ast
from clauz3.language.trusted_source import (
    ImportMap,
    SourceError,
    domain_kind,
    effect_status,
    module_level_statements,
    python_files,
    read_regular,
    read_source_file,
)

MAX_MODULES = 256
_RESOLVE_HOPS = 8


@dataclass(frozen=True)
class Param:
    name: str
    kind: str  # "posonly" | "pos" | "kwonly"
    has_default: bool
    default: Any = None
    default_literal: bool = True


@dataclass(frozen=True)
class ContractInfo:
    symbol: str
    module: str
    qualname: str
    domain: str
    params: tuple[Param, ...]
    description_template: str | None
    docstring: str | None
    source_file: str
    source_line: int
    source_sha256: str
    # Issue 10 family 8: the body reads ``F.final`` (an end-state guarantee, proved for runs that finish).
    end_state: bool = False


@dataclass(frozen=True)
class DomainInfo:
    domain: str
    title: str
    mock: str  # 05 MOCK-3: "mock" | "mixed" | "unmarked" | "real"
    trusted_root: str


@dataclass
class LayerScan:
    trusted_roots: tuple[str, ...]
    import_roots: tuple[str, ...]
    files: dict[str, str] = field(default_factory=dict)  # trusted file → sha256
    modules: dict[str, str] = field(default_factory=dict)  # dotted module → file
    contracts: dict[str, ContractInfo] = field(default_factory=dict)
    reexports: dict[str, str] = field(default_factory=dict)  # "<module>.<name>" → imported dotted target
    domains: dict[str, DomainInfo] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    layer_sha256: str = ""

    def resolve_symbol(self, dotted: str) -> ContractInfo | None:
        """Follow re-exports (``from x import y`` in a trusted module) to a registered contract."""
        seen = 0
        while seen <= _RESOLVE_HOPS:
            if dotted in self.contracts:
                return self.contracts[dotted]
            nxt = self.reexports.get(dotted)
            if nxt is None:
                return None
            dotted, seen = nxt, seen + 1
        return None


# ------------------------------------------------------------------------------------ layer scan


def _domain_of(trusted_root: str, import_roots: tuple[str, ...]) -> tuple[str, str] | None:
    """(domain, import root) for ``<import root>/tools/<d>/trusted`` or ``…/tools/<org>/<d>/trusted``."""
    for root in import_roots:
        rel = os.path.relpath(trusted_root, root)
        parts = rel.split(os.sep)
        if parts[0] == "tools" and parts[-1] == "trusted" and len(parts) in (3, 4):
            return "/".join(parts[1:-1]), root
    return None


def _decorator_name(node: ast.expr) -> str | None:
    target = node.func if isinstance(node, ast.Call) else node
    if isinstance(target, ast.Name):
        return target.id
    if isinstance(target, ast.Attribute):
        return target.attr
    return None


def _literal(node: ast.expr) -> tuple[bool, Any]:
    try:
        return True, ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False, None


def _params(fn: ast.FunctionDef) -> tuple[Param, ...]:
    args = fn.args
    positional = [*args.posonlyargs, *args.args]
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    out: list[Param] = []
    for i, (arg, default) in enumerate(zip(positional, defaults, strict=True)):
        kind = "posonly" if i < len(args.posonlyargs) else "pos"
        ok, value = _literal(default) if default is not None else (True, None)
        out.append(Param(arg.arg, kind, default is not None, value, ok))
    for arg, kw_default in zip(args.kwonlyargs, args.kw_defaults, strict=True):
        ok, value = _literal(kw_default) if kw_default is not None else (True, None)
        out.append(Param(arg.arg, "kwonly", kw_default is not None, value, ok))
    return tuple(out)


def _title(trusted_root: str, domain: str) -> str:
    manifest = os.path.join(os.path.dirname(trusted_root), "clauz3.yaml")
    try:
        data = yaml.safe_load(read_regular(manifest).decode("utf-8"))
    except (SourceError, yaml.YAMLError, UnicodeDecodeError):
        data = None
    title = data.get("title") if isinstance(data, dict) else None
    if isinstance(title, str) and title.strip():
        return title.strip()[:80]
    return domain


def scan_layer(trusted_roots: tuple[str, ...], import_roots: tuple[str, ...]) -> LayerScan:
    scan = LayerScan(tuple(trusted_roots), tuple(import_roots))
    fingerprint: list[list[str]] = []
    for root in trusted_roots:
        placed = _domain_of(root, import_roots)
        if placed is None:
            scan.errors.append(f"{root}: not <import root>/tools/<domain>/trusted")
            continue
        domain, import_root = placed
        effects: list[str] = []
        errors_before = len(scan.errors)
        found, walk_errors = python_files(Path(root))
        scan.errors.extend(walk_errors)
        if len(found) > MAX_MODULES:
            scan.errors.append(f"{root}: more than {MAX_MODULES} modules (only the first {MAX_MODULES} are read)")
        for path_obj in found[:MAX_MODULES]:
            path = str(path_obj)
            try:
                read = read_source_file(path)
            except SourceError as exc:
                scan.errors.append(str(exc))
                continue
            digest, tree = read.sha256, read.tree
            scan.files[path] = digest
            fingerprint.append([os.path.relpath(path, import_root), digest])
            rel = os.path.relpath(path, import_root)[: -len(".py")].split(os.sep)
            if rel[-1] == "__init__":
                rel = rel[:-1]
            module = ".".join(rel)
            scan.modules[module] = path
            _scan_module(scan, tree, module, domain, path, digest, effects)
        kind = domain_kind(effects, len(scan.errors) > errors_before)
        scan.domains[domain] = DomainInfo(domain, _title(root, domain), kind, root)
    scan.layer_sha256 = hashlib.sha256(json.dumps(sorted(fingerprint)).encode("utf-8")).hexdigest()
    return scan


def _scan_module(scan: LayerScan, tree: ast.Module, module: str, domain: str, path: str, digest: str,
                 effects: list[str]) -> None:
    is_package = path.endswith("__init__.py")
    package = module if is_package else module.rpartition(".")[0]
    imports = ImportMap(tree, module, is_package)
    for node in module_level_statements(tree.body):
        if isinstance(node, ast.ImportFrom):
            base = ImportMap.from_base(node, package)
            if base is None:
                continue
            for alias in node.names:
                if alias.name != "*":
                    target = f"{base}.{alias.name}" if base else alias.name
                    scan.reexports[f"{module}.{alias.asname or alias.name}"] = target
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            status = effect_status(node, imports)
            if status is not None:
                effects.append(status)
        if isinstance(node, ast.FunctionDef):
            names = [_decorator_name(d) for d in node.decorator_list]
            if "contract" in names:
                deco = node.decorator_list[names.index("contract")]
                template = None
                if isinstance(deco, ast.Call):
                    for kw in deco.keywords:
                        if kw.arg == "description" and isinstance(kw.value, ast.Constant) \
                                and isinstance(kw.value.value, str):
                            template = kw.value.value
                if template is None and ast.get_docstring(node) is None:
                    template = flow_words(node)  # issue 20: a flow contract is said in words anyway
                symbol = f"{module}.{node.name}"
                scan.contracts[symbol] = ContractInfo(
                    symbol=symbol, module=module, qualname=node.name, domain=domain, params=_params(node),
                    description_template=template, docstring=ast.get_docstring(node), source_file=path,
                    source_line=node.lineno, source_sha256=digest,
                    end_state=any(isinstance(n, ast.Attribute) and n.attr == "final" for n in ast.walk(node)),
                )


# ------------------------------------------------------------------------------- program reading


@dataclass(frozen=True)
class BoundGuarantee:
    """A guarantee resolved to a contract with keyword-bound literal arguments (CON-6)."""

    expression: str
    contract: ContractInfo | None
    args: dict[str, Any] | None  # None when some argument is not a literal or binding failed
    reason: str | None  # why it is not resolvable/literal, for the card


def program_imports(program: str) -> tuple[list[str], dict[str, str]]:
    """(normalised module-level import statements, local name → dotted target)."""
    try:
        tree = parse_ast(program)
    except (SyntaxError, ValueError):
        return [], {}
    statements: list[str] = []
    names: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.Import):
            for alias in node.names:
                statements.append(ast.unparse(ast.Import(names=[alias])))
                if alias.asname:
                    names[alias.asname] = alias.name
                else:
                    names[alias.name.split(".")[0]] = alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            for alias in node.names:
                statements.append(ast.unparse(ast.ImportFrom(module=node.module, names=[alias], level=0)))
                names[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return sorted(statements), names


def _helper_call(expression: str) -> ast.Call | None:
    text = expression.strip()
    if text.startswith("@"):
        text = text[1:]
    try:
        node = parse_ast(text, mode="eval").body
    except (SyntaxError, ValueError):
        return None
    # "guarantee(helper(...))" as written on the decorator: unwrap to the helper call.
    if isinstance(node, ast.Call) and _decorator_name(node) == "guarantee" and len(node.args) == 1 \
            and not node.keywords:
        node = node.args[0]
    return node if isinstance(node, ast.Call) else None


def _dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return f"{base}.{node.attr}" if base else None
    return None


def _arg_value(node: ast.expr) -> tuple[bool, Any]:
    if isinstance(node, ast.Call) and _decorator_name(node) in ("FilePath", "DirectoryPath") \
            and len(node.args) == 1 and not node.keywords:
        ok, value = _literal(node.args[0])
        if ok and isinstance(value, str):
            return True, TypedPath(str(_decorator_name(node)), value)
        return False, None
    return _literal(node)


@dataclass(frozen=True)
class TypedPath:
    kind: str
    text: str


def bind_guarantee(expression: str, names: dict[str, str], scan: LayerScan) -> BoundGuarantee:
    call = _helper_call(expression)
    if call is None:
        return BoundGuarantee(expression, None, None, "the guarantee is not a contract call")
    dotted = _dotted(call.func)
    if dotted is None:
        return BoundGuarantee(expression, None, None, "the guarantee does not name a contract")
    head, _, rest = dotted.partition(".")
    target = names.get(head)
    if target is None:
        return BoundGuarantee(expression, None, None, f"{dotted} is not imported from a library")
    info = scan.resolve_symbol(f"{target}.{rest}" if rest else target)
    if info is None:
        return BoundGuarantee(expression, None, None, f"{dotted} is not a contract of the selected libraries")
    bound: dict[str, Any] = {}
    positional = [p for p in info.params if p.kind != "kwonly"]
    if len(call.args) > len(positional) or any(isinstance(a, ast.Starred) for a in call.args):
        return BoundGuarantee(expression, info, None, "too many positional arguments")
    for param, node in zip(positional, call.args, strict=False):
        ok, value = _arg_value(node)
        if not ok:
            return BoundGuarantee(expression, info, None, f"argument {param.name} is not a literal")
        bound[param.name] = value
    by_name = {p.name: p for p in info.params}
    for kw in call.keywords:
        named = by_name.get(kw.arg or "")
        if named is None or named.kind == "posonly" or named.name in bound:
            return BoundGuarantee(expression, info, None, f"unexpected argument {kw.arg}")
        ok, value = _arg_value(kw.value)
        if not ok:
            return BoundGuarantee(expression, info, None, f"argument {kw.arg} is not a literal")
        bound[named.name] = value
    for param in info.params:
        if param.name not in bound:
            if not param.has_default or not param.default_literal:
                return BoundGuarantee(expression, info, None, f"argument {param.name} is missing")
            bound[param.name] = param.default
    ordered = {p.name: bound[p.name] for p in info.params}
    return BoundGuarantee(expression, info, ordered, None)


# ------------------------------------------------------------------------------------- rendering


def render_value(value: Any, limit: int = 500) -> str:
    """01 CON-5: strings JSON-quoted, numbers via repr, sequences as ``[a, b]`` (sets sorted)."""
    if isinstance(value, TypedPath):
        text = json.dumps(value.text, ensure_ascii=False)
    elif isinstance(value, str):
        text = json.dumps(value, ensure_ascii=False)
    elif isinstance(value, bool) or value is None:
        text = repr(value)
    elif isinstance(value, int | float):
        text = repr(value)
    elif isinstance(value, set | frozenset):
        text = "[" + ", ".join(sorted(render_value(v, limit) for v in value)) + "]"
    elif isinstance(value, list | tuple):
        text = "[" + ", ".join(render_value(v, limit) for v in value) + "]"
    elif isinstance(value, dict):
        text = "{" + ", ".join(f"{render_value(k, limit)}: {render_value(v, limit)}" for k, v in value.items()) + "}"
    else:
        text = repr(value)
    if len(text) > limit:
        text = f"{text[:limit]}… (+{len(text) - limit} chars)"
    return text


def first_paragraph(doc: str | None) -> str | None:
    if not doc:
        return None
    para = doc.strip().split("\n\n", 1)[0]
    text = " ".join(para.split())
    return text[:500] if text else None


def canonical_arg(value: Any) -> Any:
    """A JSON value that keeps types apart (tuple vs list, set order) for signatures."""
    if isinstance(value, TypedPath):
        return {"$path": [value.kind, value.text]}
    if isinstance(value, float):
        return {"$float": repr(value)}
    if isinstance(value, tuple):
        return {"$tuple": [canonical_arg(v) for v in value]}
    if isinstance(value, set | frozenset):
        items = [canonical_arg(v) for v in value]
        return {"$set": sorted(items, key=lambda v: json.dumps(v, sort_keys=True))}
    if isinstance(value, list):
        return [canonical_arg(v) for v in value]
    if isinstance(value, dict):
        pairs = [[canonical_arg(k), canonical_arg(v)] for k, v in value.items()]
        return {"$dict": sorted(pairs, key=lambda v: json.dumps(v, sort_keys=True))}
    if isinstance(value, bytes):
        return {"$bytes": value.hex()}
    return value
