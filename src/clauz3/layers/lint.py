"""``clauz3 lint``: static checks of trusted layers and manifests (01 §8.3, 05 CLI-17). Never imports."""

from __future__ import annotations

import ast
import os
from dataclasses import dataclass, field
from pathlib import Path
from string import Formatter

from clauz3.layers._astutil import is_literal, literal_str
from clauz3.layers.lint_lambdas import condition_subset_problem, mirror_problem
from clauz3.layers.lint_relations import (
    LayerIndex,
    check_effect_lambdas,
    check_events,
    check_fluent_declarations,
    check_policies,
    check_relations,
)
from clauz3.layers.lint_types import passable, return_annotation_ok, subclasses_of
from clauz3.layers.manifest import ManifestError, load_manifest
from clauz3.layers.scan import (
    Condition,
    Decorator,
    Effect,
    Helper,
    ModuleScan,
    Param,
    ScanError,
    read_module,
    scan_module,
)

WARNINGS = frozenset({"C3L008", "C3L014", "C3L015", "C3L016"})
_EFFECT_ROLES = frozenset({"trusted", "mock", "requires", "ensures", "performs", "fluent_effect", "protected",
                           "reads_data", "deal.has",
                           "deal.raises", "deal.chain"})
_SKIP_DIRS = frozenset({"__pycache__", ".git", ".venv", "venv", "node_modules", ".hg", ".tox"})


@dataclass(frozen=True, order=True)
class Finding:
    path: str
    line: int
    col: int
    code: str
    message: str

    @property
    def severity(self) -> str:
        return "warning" if self.code in WARNINGS else "error"

    def format(self) -> str:
        return f"{self.path}:{self.line}:{self.col}: {self.code} {self.message}"


@dataclass
class LintResult:
    findings: list[Finding] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # missing paths and unparsable files

    def failing(self, strict: bool = False) -> bool:
        """A finding that counts: an error, or any finding under ``--strict`` (the CLI maps it to exit 1)."""
        return any(f.severity == "error" or strict for f in self.findings)


@dataclass
class _Inputs:
    modules: list[Path] = field(default_factory=list)
    namespace_inits: list[Path] = field(default_factory=list)
    tools_inits: list[Path] = field(default_factory=list)
    manifests: list[Path] = field(default_factory=list)


def _classify(path: Path, inputs: _Inputs, loose: list[Path]) -> bool:
    """File placement relative to the nearest ``tools`` folder; returns whether it lies in a tools tree."""
    parts = path.absolute().parts[:-1]
    if "tools" not in parts:
        if path.suffix == ".py":
            loose.append(path)
        return False
    sub = parts[len(parts) - parts[::-1].index("tools") :]
    if path.name == "clauz3.yaml":
        inputs.manifests.append(path)
    elif path.suffix != ".py":
        pass
    elif "trusted" in sub:
        inputs.modules.append(path)
    elif path.name == "__init__.py" and not sub:
        inputs.tools_inits.append(path)
    elif path.name == "__init__.py" and len(sub) <= 2:
        inputs.namespace_inits.append(path)
    return True


def collect(paths: list[str], result: LintResult) -> _Inputs:
    inputs = _Inputs()
    for text in paths:
        root = Path(text)
        if not root.exists():
            result.errors.append(f"{text}: no such file or directory")
            continue
        if root.is_file():
            if root.suffix == ".py":
                inputs.modules.append(root)
            elif root.name.endswith((".yaml", ".yml")):
                inputs.manifests.append(root)
            continue
        loose: list[Path] = []
        in_tools = False
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = sorted(d for d in dirnames if d not in _SKIP_DIRS and (d == ".clauz3" or not d.startswith(".")))
            if Path(dirpath).name == ".clauz3":  # reviews and backups are copies, not the project's layers
                dirnames[:] = [d for d in dirnames if d not in ("staging", "library-backups")]
            for name in sorted(filenames):
                path = Path(dirpath) / name
                if name == "clauz3.yaml" and "tools" not in path.absolute().parts[:-1]:
                    inputs.manifests.append(path)  # a package manifest beside tools/
                    continue
                in_tools = _classify(path, inputs, loose) or in_tools
        if not in_tools:
            inputs.modules.extend(loose)  # a plain folder of trusted modules
    return inputs


class Linter:
    def __init__(self) -> None:
        self.result = LintResult()
        self.display: dict[Path, str] = {}

    def add(self, m: ModuleScan, node: ast.AST, code: str, message: str) -> None:
        line, col = getattr(node, "lineno", 1), getattr(node, "col_offset", 0) + 1
        self.result.findings.append(Finding(self.display.get(m.path, str(m.path)), line, col, code, message))

    def add_at(self, path: Path, line: int, col: int, code: str, message: str) -> None:
        self.result.findings.append(Finding(self.display.get(path, str(path)), line, col, code, message))

    def run(self, paths: list[str]) -> LintResult:
        inputs = collect(paths, self.result)
        modules: list[ModuleScan] = []
        seen: set[Path] = set()
        for path in inputs.modules:
            key = path.resolve()
            if key in seen:
                continue
            seen.add(key)
            self.display[path] = str(path)
            try:
                modules.append(scan_module(path.absolute()))
            except ScanError as exc:
                self.result.errors.append(f"{path}:{exc.line}:{exc.col}: {exc.message}")
                continue
            modules[-1].path = path
        for path in inputs.tools_inits:
            self.add_at(path, 1, 1, "C3L012", "tools/__init__.py must not exist (tools/ is a namespace folder)")
        for path in inputs.namespace_inits:
            self._namespace_init(path)
        for path in inputs.manifests:
            try:
                load_manifest(path, display=str(path))
            except ManifestError as exc:
                self.add_at(path, exc.line, exc.col, "C3L017", str(exc))
        self._lint_modules(modules)
        self.result.findings.sort()
        return self.result

    def _namespace_init(self, path: Path) -> None:
        try:
            _source, tree = read_module(path)
        except ScanError as exc:
            self.result.errors.append(f"{path}:{exc.line}:{exc.col}: {exc.message}")
            return
        for i, stmt in enumerate(tree.body):
            doc = i == 0 and isinstance(stmt, ast.Expr) and literal_str(stmt.value) is not None
            if not doc and not isinstance(stmt, ast.Pass):
                self.add_at(path, stmt.lineno, stmt.col_offset + 1, "C3L012",
                            "namespace __init__.py may hold only a docstring and pass")
                return

    def _lint_modules(self, modules: list[ModuleScan]) -> None:
        rows = subclasses_of(modules, "clauz3.Row")
        index = LayerIndex(modules, rows, subclasses_of(modules, "clauz3.events.Event"))
        for m in modules:
            for eff in m.effects:
                self._effect(m, eff, rows)
            for helper in m.helpers:
                self._helper(m, helper, rows)
            effect_nodes = {id(e.node) for e in m.effects} | {id(h.node) for h in m.helpers}
            for fn, decs in m.decorated:
                if id(fn) not in effect_nodes:
                    self._plain_decorated(m, fn, decs)
        check_fluent_declarations(index, self.add)
        check_effect_lambdas(index, self.add)
        check_events(index, self.add)
        check_relations(index, self.add)
        check_policies(index, self.add)

    # ------------------------------------------------------------------ effects

    def _effect(self, m: ModuleScan, eff: Effect, rows: set[str]) -> None:
        if isinstance(eff.node, ast.AsyncFunctionDef):
            self.add(m, eff.node, "C3L005", f"effect {eff.name} must be a synchronous def")
        performs = 0
        for dec in eff.decorators:
            performs += dec.role == "performs"
            if dec.role not in _EFFECT_ROLES or (dec.role == "deal.chain" and dec.call and dec.call.args):
                self.add(m, dec.node, "C3L005", f"decorator {dec.text} is not allowed on an effect")
            elif dec.role in ("trusted", "mock") and dec.call is not None and (dec.call.args or dec.call.keywords):
                self.add(m, dec.node, "C3L005", f"decorator {dec.text} takes no arguments")
        if performs > 1:
            self.add(m, eff.node, "C3L005", f"effect {eff.name} may use performs at most once")
        for p in eff.params:
            self._effect_param(m, eff, p)
        if not return_annotation_ok(eff.node.returns, eff.params, m.imports, rows):
            what = "missing" if eff.returns is None else f"{eff.returns} is not supported"
            node = eff.node.returns if eff.node.returns is not None else eff.node
            self.add(m, node, "C3L001", f"effect {eff.name}: return annotation {what} (01 EFF-4)")
        self._conditions(m, eff.name, eff.conditions, eff.params)
        if _conditions_ok(eff.conditions, eff.params):
            from clauz3.layers.lint_sat import unsatisfiable

            first = {k: next((c for c in eff.conditions if c.kind == k), None) for k in ("requires", "ensures")}
            pre_unsat = first["requires"] is not None and unsatisfiable(eff, "requires")
            if pre_unsat and first["requires"]:
                self.add_at(m.path, first["requires"].line, first["requires"].col, "C3L014",
                            f"preconditions of {eff.name} are unsatisfiable (no call can succeed)")
            elif first["ensures"] and unsatisfiable(eff, "ensures"):
                self.add_at(m.path, first["ensures"].line, first["ensures"].col, "C3L013",
                            f"postconditions of {eff.name} are jointly unsatisfiable (every caller would be vacuous)")
        if eff.status == "unmarked":
            self.add(m, eff.node, "C3L015",
                     f"undeclared stub: {eff.name} does nothing but is not marked @clauz3.mock")
        if not eff.docstring:
            self.add(m, eff.node, "C3L016", f"effect {eff.name} has no docstring")

    def _effect_param(self, m: ModuleScan, eff: Effect, p: Param) -> None:
        node = eff.node
        if p.kind in ("var_positional", "var_keyword"):
            star = "*" if p.kind == "var_positional" else "**"
            self.add(m, node, "C3L002", f"effect {eff.name}: variadic parameter {star}{p.name} is not allowed")
        elif p.annotation_node is None:
            self.add(m, node, "C3L002", f"effect {eff.name}: parameter {p.name} has no annotation")
        if p.default_node is not None and not is_literal(p.default_node):
            self.add(m, p.default_node, "C3L002", f"effect {eff.name}: default of {p.name} is not a literal")

    def _conditions(self, m: ModuleScan, owner: str, conditions: list[Condition], params: list[Param]) -> None:
        for cond in conditions:
            pred = cond.predicate
            if pred is None:
                self.add_at(m.path, cond.line, cond.col, "C3L003", f"{cond.spelling} on {owner} needs a predicate")
                continue
            if not isinstance(pred, ast.Lambda):
                what = "a def" if isinstance(pred, ast.Name) and pred.id in m.functions else ast.unparse(pred)
                self.add(m, pred, "C3L003", f"{cond.kind} condition of {owner} is not an inline lambda ({what})")
                continue
            problem = mirror_problem(cond.kind, pred, params)
            if problem:
                self.add(m, pred, "C3L003", f"{cond.kind} condition of {owner}: {problem}")
            subset = condition_subset_problem(pred.body)
            if subset:
                self.add(m, subset[0], "C3L004", f"{cond.kind} condition of {owner}: {subset[1]}")

    # ------------------------------------------------------------------ helpers

    def _helper(self, m: ModuleScan, helper: Helper, rows: set[str]) -> None:
        for dec in helper.decorators:
            if dec.role != "contract":
                self.add(m, dec.node, "C3L005", f"decorator {dec.text} is not allowed on a contract helper")
            elif dec.call is not None:
                if dec.call.args or any(k.arg != "description" for k in dec.call.keywords):
                    self.add(m, dec.node, "C3L005", f"decorator {dec.text} takes only description=")
                kw = next((k for k in dec.call.keywords if k.arg == "description"), None)
                if kw is not None and literal_str(kw.value) is None:
                    self.add(m, kw.value, "C3L007", "description= must be a literal string template")
        for p in helper.params:
            if p.kind in ("var_positional", "var_keyword"):
                self.add(m, helper.node, "C3L006", f"helper {helper.name}: variadic parameter {p.name} is not allowed")
                continue
            if not passable(p.annotation_node, m.imports, rows):
                what = "has no annotation" if p.annotation is None else f"annotation {p.annotation} is not guarantee-passable"
                self.add(m, p.annotation_node or helper.node, "C3L006", f"helper {helper.name}: parameter {p.name} {what}")
            if p.default_node is not None and not is_literal(p.default_node):
                self.add(m, p.default_node, "C3L006", f"helper {helper.name}: default of {p.name} is not a literal")
        if helper.template is not None:
            names = [p.name for p in helper.params if p.kind not in ("var_positional", "var_keyword")]
            problem = template_problem(helper.template, names)
            if problem:
                dec = next(d for d in helper.decorators if d.role == "contract")
                self.add(m, dec.node, "C3L007", f"helper {helper.name}: invalid description template: {problem}")
        elif not helper.docstring:
            self.add(m, helper.node, "C3L008", f"helper {helper.name} has no description template or docstring")

    def _plain_decorated(self, m: ModuleScan, fn: ast.FunctionDef | ast.AsyncFunctionDef,
                         decs: list[Decorator]) -> None:
        from clauz3.layers.scan import condition_of, params_of

        for dec in decs:
            if dec.role in ("mock", "performs", "fluent_effect", "protected", "reads_data"):
                self.add(m, dec.node, "C3L005", f"decorator {dec.text} is only allowed on a @clauz3.trusted effect")
        conditions = [condition_of(d, m.source) for d in decs if d.role in ("requires", "ensures")]
        if conditions:
            self._conditions(m, fn.name, conditions, params_of(fn, m.source))


def _conditions_ok(conditions: list[Condition], params: list[Param]) -> bool:
    return all(isinstance(c.predicate, ast.Lambda) and not mirror_problem(c.kind, c.predicate, params)
               for c in conditions)


def template_problem(template: str, params: list[str]) -> str | None:
    """Why a description template breaks 01 CON-4, or ``None``."""
    try:
        parsed = list(Formatter().parse(template))
    except ValueError as exc:
        return f"{exc} (write {{{{ and }}}} for literal braces)"
    used: set[str] = set()
    for _text, name, spec, conversion in parsed:
        if name is None:
            continue
        if name == "" or name.isdigit():
            return "positional placeholder {} is not allowed; name a parameter"
        if not name.isidentifier():
            return f"placeholder {{{name}}} uses an index or attribute"
        if conversion:
            return f"placeholder {{{name}!{conversion}}} uses a conversion"
        if spec:
            return f"placeholder {{{name}:{spec}}} uses a format spec"
        if name not in params:
            return f"placeholder {{{name}}} is not a parameter"
        used.add(name)
    missing = [p for p in params if p not in used]
    if missing:
        return f"parameter {missing[0]} does not appear in the template"
    return None


def lint_paths(paths: list[str]) -> LintResult:
    return Linter().run(paths)
