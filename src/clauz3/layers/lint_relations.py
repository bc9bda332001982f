"""Statically resolvable relation, event, fluent and policy checks (C3L004, C3L009, C3L010, C3L011)."""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass, field

from clauz3.language.trusted_source import module_level_statements
from clauz3.layers._astutil import call_keyword, is_literal
from clauz3.layers.lint_lambdas import (
    RELATION_METHODS,
    field_reads,
    mirror_problem,
    predicate_subset_problem,
    subset_problem,
)
from clauz3.layers.scan import Effect, Helper, ModuleScan

Report = Callable[[ModuleScan, ast.AST, str, str], None]

POLICY_KEYWORDS = frozenset({"when_used", "recommended", "required", "label"})
FLUENT_TYPES = frozenset({"str", "int", "bool"})


def domain_key(module: str) -> str | None:
    """``tools.email.trusted`` for ``tools.email.trusted.effects`` (None outside a trusted package)."""
    parts = module.split(".")
    if parts and parts[0] == "tools" and "trusted" in parts:
        return ".".join(parts[: parts.index("trusted") + 1])
    return None


@dataclass
class LayerIndex:
    modules: list[ModuleScan]
    rows: set[str]
    events: set[str]
    effects: list[Effect] = field(default_factory=list)
    fluents: set[str] = field(default_factory=set)
    classes: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.effects = [e for m in self.modules for e in m.effects]
        self.classes = {f"{m.module}.{c}" for m in self.modules for c in m.classes}

    def match_effect(self, text: str, own: str | None) -> list[Effect]:
        def hits(pool: list[Effect]) -> list[Effect]:
            return [e for e in pool if text in (e.name, e.qualified) or e.qualified.endswith("." + text)]

        local = hits([e for e in self.effects if domain_key(e.module) == own])
        return local or hits(self.effects)


class RelationChecker:
    """Evaluates relation expressions far enough to know their target effects."""

    def __init__(self, index: LayerIndex, report: Report) -> None:
        self.index = index
        self.report = report
        self._reported: set[int] = set()

    def _once(self, m: ModuleScan, node: ast.AST, code: str, message: str) -> None:
        if id(node) not in self._reported:
            self._reported.add(id(node))
            self.report(m, node, code, message)

    def targets(self, m: ModuleScan, node: ast.expr, env: dict[str, ast.expr], depth: int = 0) -> list[Effect] | None:
        if depth > 20:
            return None
        if isinstance(node, ast.Name) and node.id in env:
            return self.targets(m, env[node.id], env, depth + 1)
        if not isinstance(node, ast.Call):
            return None
        if isinstance(node.func, ast.Attribute) and node.func.attr == "where":
            return self.targets(m, node.func.value, env, depth + 1)
        if m.imports.resolve(node.func) != "clauz3.effect" or not node.args:
            return None
        found: list[Effect] = []
        known = True
        for arg in node.args:
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                hits = self.index.match_effect(arg.value, domain_key(m.module))
                if len(hits) == 1:
                    found.append(hits[0])
                    continue
                known = False
                what = "unknown-effect" if not hits else "ambiguous-effect"
                detail = "matches no effect" if not hits else "matches " + ", ".join(e.qualified for e in hits)
                self._once(m, arg, "C3L009", f"{what}: effect name {arg.value!r} {detail}")
                continue
            dotted = m.imports.resolve(arg)
            hit = next((e for e in self.index.effects if e.qualified == dotted), None)
            if hit is not None:
                found.append(hit)
                continue
            known = False
            if dotted is not None and any(dotted == f"{s.module}.{fn}" for s in self.index.modules for fn in s.functions):
                self._once(m, arg, "C3L009", f"unknown-effect: {ast.unparse(arg)} is not a trusted effect")
        return found if known else None

    def check_scope(self, m: ModuleScan, body: list[ast.stmt], env: dict[str, ast.expr],
                    local_defs: set[str]) -> None:
        for stmt in body:
            for node in ast.walk(stmt):
                if isinstance(node, ast.Call):
                    self._check_call(m, node, env, local_defs)

    def _check_call(self, m: ModuleScan, call: ast.Call, env: dict[str, ast.expr], local_defs: set[str]) -> None:
        func = call.func
        if m.imports.resolve(func) == "clauz3.effect":
            self.targets(m, call, env)
            return
        if not isinstance(func, ast.Attribute) or func.attr not in RELATION_METHODS:
            return
        predicates = list(call.args) + [k.value for k in call.keywords]
        fields: set[str] | None = None
        receiver = self.targets(m, func.value, env)
        if receiver:
            fields = _common_fields(receiver)
        if func.attr == "shares_value":
            other = self.targets(m, call.args[0], env) if call.args else None
            predicates = predicates[1:]
            fields = fields & _common_fields(other) if (fields is not None and other) else None
        for pred in predicates:
            if isinstance(pred, ast.Name) and (pred.id in local_defs or pred.id in m.functions):
                self.report(m, pred, "C3L004", f"{pred.id} is a def; relation predicates must be inline lambdas")
                continue
            if not isinstance(pred, ast.Lambda):
                continue
            problem = predicate_subset_problem(pred)
            if problem:
                self.report(m, problem[0], "C3L004", problem[1])
                continue
            if fields is None:
                continue
            for read in field_reads(pred):
                if read.attr not in fields:
                    common = ", ".join(sorted(fields)) or "none"
                    self.report(m, read, "C3L009",
                                f"field {read.attr!r} is not common to the relation's targets (fields: {common})")


def _common_fields(effects: list[Effect]) -> set[str]:
    sets = [{p.name for p in e.params if p.kind not in ("var_positional", "var_keyword")} for e in effects]
    return set.intersection(*sets) if sets else set()


def assignments(body: list[ast.stmt]) -> dict[str, ast.expr]:
    env: dict[str, ast.expr] = {}
    for stmt in body:
        for node in ast.walk(stmt):
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                env[node.targets[0].id] = node.value
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
                env[node.target.id] = node.value
    return env


def check_relations(index: LayerIndex, report: Report) -> None:
    checker = RelationChecker(index, report)
    for m in index.modules:
        effect_nodes = {id(e.node) for e in m.effects}
        module_env = assignments([s for s in m.tree.body if not isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef)])
        top = [s for s in module_level_statements(m.tree.body)
               if not isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.If | ast.Try)]
        checker.check_scope(m, top, module_env, set())
        for fn in m.functions.values():
            if id(fn) in effect_nodes:
                continue
            env = {**module_env, **assignments(fn.body)}
            local_defs = {n.name for n in ast.walk(fn) if isinstance(n, ast.FunctionDef) and n is not fn}
            checker.check_scope(m, fn.body, env, local_defs)


def check_effect_lambdas(index: LayerIndex, report: Report) -> None:
    """``performs`` (EVT-2) and ``clauz3.fluent.effect`` (FLU-1) on each effect: C3L010."""
    for m in index.modules:
        for eff in m.effects:
            plain = {p.name for p in eff.params if p.default_node is None
                     and p.kind not in ("var_positional", "var_keyword")}
            names = {p.name for p in eff.params if p.kind not in ("var_positional", "var_keyword")}
            for dec in eff.decorators:
                if dec.role not in ("performs", "fluent_effect"):
                    continue
                call = dec.call
                what = "performs" if dec.role == "performs" else "fluent.effect"
                if call is None or len(call.args) != 1 or call.keywords or not isinstance(call.args[0], ast.Lambda):
                    report(m, dec.node, "C3L010", f"{what} takes exactly one inline lambda")
                    continue
                lam = call.args[0]
                problem = subset_problem(lam, eff.params) if dec.role == "performs" else \
                    mirror_problem("performs", lam, eff.params)
                if problem:
                    report(m, lam, "C3L010", f"{what}: {problem}")
                    continue
                items = lam.body.elts if isinstance(lam.body, ast.List | ast.Tuple) else [lam.body]
                for item in items:
                    if dec.role == "performs":
                        _check_event_call(index, m, item, plain, report)
                    else:
                        _check_fluent_set(index, m, item, names, report)


def _check_event_call(index: LayerIndex, m: ModuleScan, item: ast.expr, plain: set[str], report: Report) -> None:
    if not isinstance(item, ast.Call):
        report(m, item, "C3L010", "performs must build Event instances: E(param, …) or a list of them")
        return
    dotted = m.imports.resolve(item.func)
    if dotted in index.classes and dotted not in index.events:
        report(m, item.func, "C3L010", f"{ast.unparse(item.func)} is not an Event subclass")
    for arg in [*item.args, *(k.value for k in item.keywords)]:
        if not isinstance(arg, ast.Name) or arg.id not in plain:
            report(m, arg, "C3L010",
                   f"event argument {ast.unparse(arg)} must be a parameter of the effect without a default")


def _check_fluent_set(index: LayerIndex, m: ModuleScan, item: ast.expr, names: set[str], report: Report) -> None:
    ok = isinstance(item, ast.Call) and isinstance(item.func, ast.Attribute) and item.func.attr == "set"
    if not ok or not isinstance(item, ast.Call) or len(item.args) != 2 or item.keywords:
        report(m, item, "C3L010", "fluent.effect must return F.set(key, value) or a list of them")
        return
    assert isinstance(item.func, ast.Attribute)
    dotted = m.imports.resolve(item.func.value)
    if dotted is not None and index.fluents and dotted not in index.fluents and dotted.startswith("tools."):
        report(m, item.func.value, "C3L010", f"{ast.unparse(item.func.value)} is not a declared fluent")
    for arg in item.args:
        if isinstance(arg, ast.Name) and arg.id in names:
            continue
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str | int | bool):
            continue
        report(m, arg, "C3L010", f"fluent key/value {ast.unparse(arg)} must be a parameter name or a literal")


def check_fluent_declarations(index: LayerIndex, report: Report) -> None:
    """``fluent(name, *, value, key=str, initial)`` (FLU-1): C3L010."""
    for m in index.modules:
        for stmt in module_level_statements(m.tree.body):
            if not (isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Call)):
                continue
            call = stmt.value
            if m.imports.resolve(call.func) != "clauz3.fluent.fluent":
                continue
            for target in stmt.targets:
                if isinstance(target, ast.Name):
                    index.fluents.add(f"{m.module}.{target.id}")
            if len(call.args) != 1 or not (isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str)):
                report(m, call, "C3L010", "fluent takes its name as one positional string")
            unknown = [k.arg for k in call.keywords if k.arg not in ("value", "key", "initial")]
            if unknown:
                report(m, call, "C3L010", f"fluent got unknown keyword {unknown[0]}")
            value_kw, key_kw, initial_kw = (call_keyword(call, n) for n in ("value", "key", "initial"))
            value_t = value_kw.value.id if value_kw and isinstance(value_kw.value, ast.Name) else None
            if value_t not in FLUENT_TYPES:
                report(m, value_kw.value if value_kw else call, "C3L010", "fluent value= must be str, int or bool")
            if key_kw and not (isinstance(key_kw.value, ast.Name) and key_kw.value.id in FLUENT_TYPES):
                report(m, key_kw.value, "C3L010", "fluent key= must be str, int or bool")
            if initial_kw is None or not is_literal(initial_kw.value):
                report(m, initial_kw.value if initial_kw else call, "C3L010", "fluent initial= must be a literal")
            elif value_t in FLUENT_TYPES and isinstance(initial_kw.value, ast.Constant):
                v = initial_kw.value.value
                if type(v).__name__ != value_t:
                    report(m, initial_kw.value, "C3L010", f"fluent initial= must be of type {value_t}")


def check_policies(index: LayerIndex, report: Report) -> None:
    """``tools/<d>/trusted/policy.py`` (COV-1): C3L011."""
    for m in index.modules:
        key = domain_key(m.module)
        if key is None or m.module != f"{key}.policy":
            continue
        effects = {e.name for e in index.effects if domain_key(e.module) == key}
        helpers = {h.name: h for s in index.modules if s.module == f"{key}.contracts" for h in s.helpers}
        for stmt in module_level_statements(m.tree.body):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else []
            if not any(isinstance(t, ast.Name) and t.id == "POLICY" for t in targets):
                continue
            assert isinstance(stmt, ast.Assign)
            value = stmt.value
            calls = value.elts if isinstance(value, ast.List | ast.Tuple) else [value]
            if len(calls) > 32:
                report(m, value, "C3L011", f"POLICY holds {len(calls)} policies; at most 32 are allowed")
            for call in calls:
                if not (isinstance(call, ast.Call) and m.imports.resolve(call.func) == "clauz3.policy.domain_policy"):
                    report(m, call, "C3L011", "POLICY must be domain_policy(...) or a list/tuple of them")
                    continue
                _check_policy_call(m, call, effects, helpers, report)


def _names(node: ast.expr) -> list[ast.Constant] | None:
    elts = node.elts if isinstance(node, ast.List | ast.Tuple) else [node]
    if all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in elts):
        return [e for e in elts if isinstance(e, ast.Constant)]
    return None


def _check_policy_call(m: ModuleScan, call: ast.Call, effects: set[str], helpers: dict[str, Helper], report: Report) -> None:
    if call.args:
        report(m, call, "C3L011", "domain_policy takes keyword arguments only")
    for kw in call.keywords:
        if kw.arg not in POLICY_KEYWORDS:
            report(m, kw.value, "C3L011", f"domain_policy got unknown keyword {kw.arg}")
    when = call_keyword(call, "when_used")
    if when is None:
        report(m, call, "C3L011", "domain_policy needs when_used=")
    else:
        consts = _names(when.value)
        if not consts or (isinstance(when.value, ast.List | ast.Tuple) and not when.value.elts):
            report(m, when.value, "C3L011", "when_used must be an effect name or a list of them")
        for c in consts or []:
            if c.value not in effects:
                report(m, c, "C3L011", f"when_used names {c.value!r}, not an effect of this domain")
    for name in ("recommended", "required"):
        listed = call_keyword(call, name)
        if listed is None:
            continue
        consts = _names(listed.value) if isinstance(listed.value, ast.List | ast.Tuple) else None
        if consts is None:
            report(m, listed.value, "C3L011", f"{name} must be a list of helper names")
            continue
        for c in consts:
            helper = helpers.get(c.value) if isinstance(c.value, str) else None  # _names keeps str constants
            if helper is None:
                report(m, c, "C3L011", f"{name} names {c.value!r}, not a helper in this domain's contracts module")
            elif name == "required" and helper.params:
                report(m, c, "C3L011", f"required helper {c.value!r} must take no parameters")
    label = call_keyword(call, "label")
    if label is not None and not (isinstance(label.value, ast.Constant) and isinstance(label.value.value, str | None)):
        report(m, label.value, "C3L011", "label must be a string")


RESERVED_EVENT_FIELDS = frozenset({"all", "where", "empty", "distinct", "count", "sum", "shares_value", "final"})


def check_events(index: LayerIndex, report: Report) -> None:
    """Event subclasses (EVT-1): ``str``/``int``/``bool`` fields, none named like a relation method: C3L010."""
    for m in index.modules:
        for name, cls in m.classes.items():
            if f"{m.module}.{name}" not in index.events:
                continue
            for stmt in cls.body:
                if not isinstance(stmt, ast.AnnAssign) or not isinstance(stmt.target, ast.Name):
                    continue
                field_name = stmt.target.id
                if field_name in RESERVED_EVENT_FIELDS:
                    report(m, stmt.target, "C3L010", f"event {name}: field name {field_name!r} is reserved")
                ann = stmt.annotation
                if isinstance(ann, ast.Constant) and isinstance(ann.value, str):
                    type_name = ann.value
                else:
                    type_name = ann.id if isinstance(ann, ast.Name) else ast.unparse(ann)
                if type_name not in FLUENT_TYPES:
                    report(m, ann, "C3L010", f"event {name}: field {field_name} must be str, int or bool")
