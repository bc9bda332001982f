"""Condition and predicate lambdas: mirroring (01 EFF-2) and the expression subsets (EXP-1, PRED-1)."""

from __future__ import annotations

import ast

from clauz3.layers.scan import Param, params_of

PATH_PREDICATES = frozenset(
    {"has_no_parent_segments", "is_plain_path", "url_has_no_parent_segments", "is_single_path_component"}
)
RELATION_METHODS = frozenset({"where", "all", "distinct", "sum", "shares_value"})


def _shape(params: list[Param]) -> list[tuple[str, str, str | None]]:
    return [(p.name, p.kind, None if p.default_node is None else ast.dump(p.default_node)) for p in params]


def _render(params: list[tuple[str, str, str | None]]) -> str:
    return ", ".join(name for name, _, _ in params) or "no parameters"


def mirror_problem(kind: str, lam: ast.Lambda, fn_params: list[Param]) -> str | None:
    """Why a ``requires``/``ensures``/``performs`` lambda does not mirror the function, or ``None``."""
    got = _shape(params_of(lam, ""))
    want = _shape(fn_params)
    if [g[0] for g in got] == ["_"] and want != got:
        return "a lone _ parameter does not mirror the function's parameters"
    if kind != "ensures":
        if got == want:
            return None
        return f"lambda parameters ({_render(got)}) must mirror the function's ({_render(want)})"
    if [(g[0], g[1]) for g in got] == [("result", "positional_or_keyword")] and got[0][2] is None:
        return None
    positional = [w for w in want if w[1] in ("positional_only", "positional_or_keyword")]
    rest = [w for w in want if w not in positional]
    as_positional = [*positional, ("result", "positional_or_keyword", None), *rest]
    as_keyword = [*want, ("result", "keyword_only", None)]
    if got in (as_positional, as_keyword):
        return None
    if "result" not in [g[0] for g in got]:
        return "postcondition lambda must take `result` (alone, or after the mirrored parameters)"
    return f"lambda parameters ({_render(got)}) must be `result` or the function's ({_render(want)}) plus `result`"


def subset_problem(lam: ast.Lambda, fn_params: list[Param]) -> str | None:
    """EVT-2: a ``performs`` lambda names a subset of the effect's parameters, by name."""
    names = {p.name for p in fn_params if p.kind not in ("var_positional", "var_keyword")}
    for p in params_of(lam, ""):
        if p.kind in ("var_positional", "var_keyword"):
            return "the lambda must not take *args/**kwargs"
        if p.name not in names:
            return f"lambda parameter `{p.name}` is not a parameter of the effect"
    return None


def _dunder(name: str) -> bool:
    return name.startswith("__") and name.endswith("__")


def condition_subset_problem(body: ast.expr) -> tuple[ast.AST, str] | None:
    """First construct of a condition body outside EXP-1 (refusals of EXP-2), or ``None``."""
    refused: dict[type, str] = {
        ast.Lambda: "a nested lambda",
        ast.GeneratorExp: "a generator expression",
        ast.SetComp: "a set comprehension",
        ast.DictComp: "a dict comprehension",
        ast.NamedExpr: "an assignment expression (:=)",
        ast.Await: "await",
        ast.Yield: "yield",
        ast.YieldFrom: "yield",
        ast.Starred: "a starred expression",
    }
    for node in ast.walk(body):
        for cls, what in refused.items():
            if isinstance(node, cls):
                return node, f"{what} is outside the condition subset"
        if isinstance(node, ast.Constant) and isinstance(node.value, bytes):
            return node, "bytes literals are outside the condition subset"
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            for i, op in enumerate(node.ops):
                if isinstance(op, ast.Is | ast.IsNot):
                    pair = operands[i : i + 2]
                    if not any(isinstance(x, ast.Constant) and x.value is None for x in pair):
                        return node, "`is` is allowed only with None"
        if isinstance(node, ast.BinOp):
            if isinstance(node.op, ast.MatMult):
                return node, "`@` is outside the condition subset"
            if isinstance(node.op, ast.Mod) and isinstance(node.left, ast.Constant | ast.JoinedStr) and (
                isinstance(node.left, ast.JoinedStr) or isinstance(node.left.value, str)
            ):
                return node, "%-formatting is outside the condition subset"
        if isinstance(node, ast.FormattedValue) and (node.format_spec is not None or node.conversion != -1):
            return node, "f-string format specs and conversions are outside the condition subset"
        if isinstance(node, ast.Attribute) and _dunder(node.attr):
            return node, f"dunder attribute {node.attr} is outside the condition subset"
        if isinstance(node, ast.ListComp):
            if len(node.generators) != 1 or any(isinstance(n, ast.ListComp) for n in ast.walk(node.elt)):
                return node, "only list comprehensions with one generator are allowed"
        if isinstance(node, ast.Call):
            if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
                return node, "* and ** unpacking in calls are outside the condition subset"
    return None


def predicate_subset_problem(lam: ast.Lambda) -> tuple[ast.AST, str] | None:
    """First construct of a relation predicate outside PRED-1 (refused by PRED-2), or ``None``."""
    args = lam.args
    if args.posonlyargs or args.vararg or args.kwonlyargs or args.kwarg or len(args.args) != 1 or args.defaults:
        return lam, "a relation predicate takes exactly one parameter"
    param = args.args[0].arg
    if isinstance(lam.body, ast.Name) and lam.body.id == param:
        return lam, f"`lambda {param}: {param}` is not a predicate; read a field"
    return _pred_expr(lam.body, param)


def _pred_expr(node: ast.expr, param: str) -> tuple[ast.AST, str] | None:
    def sub(*children: ast.expr) -> tuple[ast.AST, str] | None:
        for child in children:
            problem = _pred_expr(child, param)
            if problem:
                return problem
        return None

    if isinstance(node, ast.Constant):
        if isinstance(node.value, bool | int | float | str) or node.value is None:
            return None
        return node, f"constant {node.value!r} is outside the predicate subset"
    if isinstance(node, ast.Name):
        return None  # the parameter itself (as a sub-expression) or a captured name
    if isinstance(node, ast.Attribute):
        if _dunder(node.attr):
            return node, f"dunder attribute {node.attr} is outside the predicate subset"
        if isinstance(node.value, ast.Name):
            return None  # e.field, or a captured ColumnRef / module constant
        return node, "only one level of field access (e.field) is allowed"
    if isinstance(node, ast.List | ast.Tuple | ast.Set):
        return sub(*node.elts)
    if isinstance(node, ast.Compare):
        if len(node.ops) != 1:
            return node, "chained comparisons are outside the predicate subset"
        if isinstance(node.ops[0], ast.Is | ast.IsNot):
            return node, "`is` is outside the predicate subset"
        return sub(node.left, *node.comparators)
    if isinstance(node, ast.BoolOp):
        return sub(*node.values)
    if isinstance(node, ast.UnaryOp):
        if isinstance(node.op, ast.Not):
            return sub(node.operand)
        if isinstance(node.op, ast.USub | ast.UAdd) and isinstance(node.operand, ast.Constant):
            return sub(node.operand)
        return node, "unary operators other than `not` are outside the predicate subset"
    if isinstance(node, ast.BinOp):
        if isinstance(node.op, ast.Add | ast.Sub):
            return sub(node.left, node.right)
        return node, "only binary + and - are allowed in predicates"
    if isinstance(node, ast.Call):
        if node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
            return node, "keyword or unpacked arguments are outside the predicate subset"
        func = node.func
        if isinstance(func, ast.Name) and func.id == "len" and len(node.args) == 1:
            return sub(*node.args)
        if isinstance(func, ast.Attribute) and func.attr in ("startswith", "endswith"):
            if len(node.args) != 1:
                return node, f"{func.attr} takes exactly one argument in predicates"
            return sub(func.value, *node.args)
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
        if name in PATH_PREDICATES and len(node.args) == 1:
            return sub(*node.args)
        return node, f"call of {ast.unparse(func)} is outside the predicate subset"
    what = {
        ast.Subscript: "subscripts",
        ast.Slice: "slices",
        ast.ListComp: "comprehensions",
        ast.SetComp: "comprehensions",
        ast.DictComp: "comprehensions",
        ast.GeneratorExp: "comprehensions",
        ast.IfExp: "conditional expressions",
        ast.JoinedStr: "f-strings",
        ast.Lambda: "nested lambdas",
        ast.Dict: "dict displays",
    }.get(type(node), type(node).__name__)
    return node, f"{what} are outside the predicate subset"


def field_reads(lam: ast.Lambda) -> list[ast.Attribute]:
    """``e.<field>`` reads of the lambda's (single) parameter."""
    if len(lam.args.args) != 1:
        return []
    param = lam.args.args[0].arg
    return [
        n for n in ast.walk(lam.body)
        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == param
    ]
