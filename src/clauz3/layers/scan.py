"""Static scan of trusted modules (05 CLI-15, MOCK-2): effects, helpers, conditions — parsed, never imported."""

from __future__ import annotations

import ast
import keyword
from dataclasses import dataclass, field
from pathlib import Path

from clauz3.language.trusted_source import (
    ImportMap,
    SourceError,
    effect_status,
    module_level_statements,
    python_files,
    read_source_file,
)
from clauz3.layers._astutil import call_keyword, docstring, first_paragraph, literal_str
from clauz3.layers._segment import source_segment
from clauz3.layers.errors import LayersError

# Resolved decorator objects and the role they play on trusted code (01 §2.2, §2.9).
DECORATOR_KINDS: dict[str, str] = {
    "clauz3.trusted": "trusted",
    "clauz3.mock": "mock",
    "clauz3.requires": "requires",
    "clauz3.ensures": "ensures",
    "clauz3.events.performs": "performs",
    "clauz3.fluent.effect": "fluent_effect",
    "clauz3.contract": "contract",
    "clauz3.solver": "solver",
    "clauz3.protected": "protected",
    "clauz3.reads_data": "reads_data",
    "deal.pre": "requires",
    "deal.post": "ensures",
    "deal.ensure": "ensures",
    "deal.has": "deal.has",
    "deal.raises": "deal.raises",
    "deal.chain": "deal.chain",
}

PARAM_KINDS = ("positional_only", "positional_or_keyword", "var_positional", "keyword_only", "var_keyword")


class ScanError(LayersError):
    """A file that cannot be read or parsed; ``line``/``col`` locate syntax errors."""

    def __init__(self, path: Path, message: str, line: int = 1, col: int = 1) -> None:
        super().__init__(f"{path}:{line}:{col}: {message}")
        self.path = path
        self.message = message
        self.line = line
        self.col = col


@dataclass
class Param:
    name: str
    annotation: str | None
    default: str | None
    kind: str
    annotation_node: ast.expr | None = field(default=None, repr=False, compare=False)
    default_node: ast.expr | None = field(default=None, repr=False, compare=False)


@dataclass
class Decorator:
    role: str  # a DECORATOR_KINDS value, or "other"
    dotted: str | None
    text: str
    node: ast.expr = field(repr=False, compare=False)

    @property
    def call(self) -> ast.Call | None:
        return self.node if isinstance(self.node, ast.Call) else None


@dataclass
class Condition:
    kind: str  # "requires" or "ensures"
    spelling: str  # decorator text head: "requires", "deal.pre", …
    predicate: ast.expr | None = field(repr=False, compare=False)
    source: str | None  # the predicate's source text
    body_source: str | None  # the lambda body's source text (the predicate as people read it)
    message: str | None
    line: int
    col: int


@dataclass
class Effect:
    module: str
    name: str
    path: Path
    line: int
    col: int
    params: list[Param]
    returns: str | None
    mock: bool
    status: str  # 05 MOCK-2: "mock", "unmarked" or "real"
    docstring: str | None
    conditions: list[Condition]
    decorators: list[Decorator]
    node: ast.FunctionDef | ast.AsyncFunctionDef = field(repr=False, compare=False)

    @property
    def qualified(self) -> str:
        return f"{self.module}.{self.name}"

    @property
    def description(self) -> str | None:
        return first_paragraph(self.docstring, 200)


@dataclass
class Helper:
    module: str
    name: str
    path: Path
    line: int
    col: int
    params: list[Param]
    template: str | None
    docstring: str | None
    decorators: list[Decorator]
    node: ast.FunctionDef | ast.AsyncFunctionDef = field(repr=False, compare=False)

    @property
    def description(self) -> str | None:
        return self.template if self.template is not None else first_paragraph(self.docstring, 200)


@dataclass
class ModuleScan:
    path: Path
    module: str
    is_package: bool
    source: str = field(repr=False)
    tree: ast.Module = field(repr=False)
    imports: ImportMap = field(repr=False)
    functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = field(default_factory=dict, repr=False)
    classes: dict[str, ast.ClassDef] = field(default_factory=dict, repr=False)
    effects: list[Effect] = field(default_factory=list)
    helpers: list[Helper] = field(default_factory=list)
    decorated: list[tuple[ast.FunctionDef | ast.AsyncFunctionDef, list[Decorator]]] = field(
        default_factory=list, repr=False
    )


@dataclass
class RootScan:
    domain: str
    trusted_root: Path
    modules: list[ModuleScan]
    errors: list[str]

    @property
    def effects(self) -> list[Effect]:
        return [e for m in self.modules for e in m.effects]

    @property
    def helpers(self) -> list[Helper]:
        return [h for m in self.modules for h in m.helpers]


def _is_identifier(part: str) -> bool:
    return part.isidentifier() and not keyword.iskeyword(part)


def module_name_for(path: Path) -> tuple[str, bool]:
    """Dotted module name of a file below a ``tools/`` folder (else its stem) and whether it is a package."""
    parts = list(path.parts)
    is_package = path.name == "__init__.py"
    stem_parts = parts[:-1] if is_package else [*parts[:-1], path.stem]
    for i in range(len(stem_parts) - 1, -1, -1):
        if stem_parts[i] == "tools" and all(_is_identifier(p) for p in stem_parts[i + 1 :]):
            return ".".join(stem_parts[i:]), is_package
    return (stem_parts[-1] if stem_parts else path.stem), is_package


def domain_of_trusted_root(root: Path) -> tuple[str, Path] | None:
    """``(domain, import root)`` when ``root`` is ``<import root>/tools/<d>[/<org>…]/trusted`` (01 TL-1)."""
    parts = root.parts
    if len(parts) < 3 or parts[-1] != "trusted":
        return None
    for depth in (1, 2):
        if len(parts) >= depth + 3 and parts[-(depth + 2)] == "tools":
            names = parts[-(depth + 1) : -1]
            if all(_is_identifier(p) for p in names):
                return "/".join(names), Path(*parts[: -(depth + 2)])
    return None


def read_module(path: Path) -> tuple[str, ast.Module]:
    """Source text and tree of one trusted file, through the one trusted-source reader (MOCK-2)."""
    try:
        found = read_source_file(path)
    except SourceError as exc:
        raise ScanError(path, exc.message, exc.line, exc.col) from None
    return found.text, found.tree


def _params(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda, source: str) -> list[Param]:
    args = node.args
    positional = [*args.posonlyargs, *args.args]
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    out: list[Param] = []

    def text(n: ast.expr | None) -> str | None:
        if n is None:
            return None
        return (source_segment(source, n) if source else None) or ast.unparse(n)

    for i, (arg, default) in enumerate(zip(positional, defaults, strict=True)):
        kind = "positional_only" if i < len(args.posonlyargs) else "positional_or_keyword"
        out.append(Param(arg.arg, text(arg.annotation), text(default), kind, arg.annotation, default))
    if args.vararg:
        out.append(Param(args.vararg.arg, text(args.vararg.annotation), None, "var_positional", args.vararg.annotation))
    for arg, default in zip(args.kwonlyargs, args.kw_defaults, strict=True):
        out.append(Param(arg.arg, text(arg.annotation), text(default), "keyword_only", arg.annotation, default))
    if args.kwarg:
        out.append(Param(args.kwarg.arg, text(args.kwarg.annotation), None, "var_keyword", args.kwarg.annotation))
    return out


def params_of(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda, source: str) -> list[Param]:
    return _params(node, source)


def _decorators(node: ast.FunctionDef | ast.AsyncFunctionDef, imports: ImportMap, source: str) -> list[Decorator]:
    out = []
    for dec in node.decorator_list:
        head = dec.func if isinstance(dec, ast.Call) else dec
        dotted = imports.resolve(head)
        role = DECORATOR_KINDS.get(dotted or "", "other")
        out.append(Decorator(role, dotted, source_segment(source, dec) or ast.unparse(dec), dec))
    return out


def condition_of(dec: Decorator, source: str) -> Condition:
    call = dec.call
    predicate = call.args[0] if call is not None and call.args else None
    message = literal_str(kw.value) if call is not None and (kw := call_keyword(call, "message")) else None
    if message is None and call is not None and dec.role == "requires" and len(call.args) > 1:
        message = literal_str(call.args[1])
    src = source_segment(source, predicate) if predicate is not None else None
    body_src = None
    if isinstance(predicate, ast.Lambda):
        body_src = source_segment(source, predicate.body) or ast.unparse(predicate.body)
    spelling = dec.text.split("(", 1)[0].lstrip("@")
    line, col = dec.node.lineno, dec.node.col_offset + 1
    return Condition(dec.role, spelling, predicate, src, body_src, message, line, col)


def scan_module(path: Path, module: str | None = None, is_package: bool | None = None) -> ModuleScan:
    """Parse one trusted module; raises :class:`ScanError` when it cannot be read or parsed."""
    if module is None or is_package is None:
        module, is_package = module_name_for(path)
    source, tree = read_module(path)
    imports = ImportMap(tree, module, is_package)
    scan = ModuleScan(path, module, is_package, source, tree, imports)
    for stmt in module_level_statements(tree.body):
        if isinstance(stmt, ast.ClassDef):
            scan.classes[stmt.name] = stmt
            continue
        if not isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        scan.functions[stmt.name] = stmt
        decs = _decorators(stmt, imports, source)
        if decs:
            scan.decorated.append((stmt, decs))
        doc = docstring(stmt)
        line, col = stmt.lineno, stmt.col_offset + 1
        status = effect_status(stmt, imports)
        if status is not None:
            mock = status == "mock"
            returns = None
            if stmt.returns is not None:
                returns = source_segment(source, stmt.returns) or ast.unparse(stmt.returns)
            conditions = [condition_of(d, source) for d in decs if d.role in ("requires", "ensures")]
            # Decorators apply bottom-up, but people read conditions top to bottom (internals.md).
            scan.effects.append(
                Effect(module, stmt.name, path, line, col, _params(stmt, source), returns, mock, status, doc,
                       conditions, decs, stmt)
            )
        elif any(d.role == "contract" for d in decs):
            template = None
            for d in decs:
                if d.role == "contract" and d.call is not None:
                    kw = call_keyword(d.call, "description")
                    template = literal_str(kw.value) if kw else None
            scan.helpers.append(
                Helper(module, stmt.name, path, line, col, _params(stmt, source), template, doc, decs, stmt)
            )
    return scan


def scan_root(trusted_root: Path) -> RootScan:
    """Scan every module of one trusted root; unreadable, symlinked or out-of-root files go to ``errors``."""
    located = domain_of_trusted_root(trusted_root)
    domain = located[0] if located else trusted_root.name
    modules: list[ModuleScan] = []
    paths, errors = python_files(trusted_root)
    for path in paths:
        try:
            modules.append(scan_module(path))
        except ScanError as exc:
            errors.append(str(exc))
    return RootScan(domain, trusted_root, modules, errors)
