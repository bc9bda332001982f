"""What the generative check exercised (issue 18): counted in the real interpreter as the runs execute.

``Coverage.install()`` wraps the handlers of the interpreter's dispatch tables (test code only, in
the gen_check process) so that every executed IR node is counted by kind and by operation-table
entry, every ``for`` loop by how many times its body ran (zero, one, many), set displays that held
repeats and dict displays whose keys were overwritten; ``CountingSampler`` counts the trusted
results sampled at their declared boundaries (None, empty, the maximum length, repeated rows).
``shortfall()`` names everything below the floor (20 per default-tier run).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from clauz3.difftest.sample import Sampler
from clauz3.language import ir
from clauz3.language.operations import OPERATIONS

FLOOR = 20
# IR node kinds the gen layer cannot produce, and why (kept out of the floor, shown in the report).
UNREACHABLE = {
    "SolverCall": "the gen layer has no solver-modelled functions",
    "RecordVar": "record variables occur only inside contract predicates, which the monitor evaluates",
    # A proved program never executes a raise (its obligation says the raise is unreachable); the
    # generator writes them (gen_stanzas.st_small) and the prover's raise obligation is what they test.
    "Raise": "a proved program never executes a raise: the prover proves each one unreachable",
}
# Trusted-result boundaries the gen layer cannot produce, and why.
UNREACHABLE_BOUNDARIES = {"None": "the checker refuses trusted results typed `T | None`"}
LOOPS = ("zero", "one", "many")
SHAPES = ("set display with repeats", "dict display with overwritten keys")
BOUNDARIES = ("None", "empty", "maximum length", "repeated rows")


def op_keys(node: Any, env: dict[str, Any]) -> list[str]:
    if isinstance(node, ir.BinOp):
        return [node.op]
    if isinstance(node, ir.UnaryOp):
        return [f"unary {node.op}"]
    if isinstance(node, ir.Compare):
        return list(node.ops)
    if isinstance(node, ir.BoolOp):
        return [node.op]
    if isinstance(node, ir.IfExp):
        return ["ifexp"]
    if isinstance(node, ir.Subscript):
        return ["subscript"]
    if isinstance(node, ir.Slice):
        return ["slice"]
    if isinstance(node, ir.FString):
        return ["fstring"]
    if isinstance(node, ir.Formatted):
        return ["format"]
    if isinstance(node, ir.BuiltinCall):
        return [node.name]
    if isinstance(node, ir.MethodCall):
        return [f"{node.receiver}.{node.method}"]
    if isinstance(node, ir.ListComp):
        return ["listcomp"]
    if isinstance(node, ir.SetItem):
        return ["dict setitem" if isinstance(env.get(node.name), dict) else "setitem"]
    if isinstance(node, ir.AugAssign):
        return ["augassign"]
    if isinstance(node, ir.For):
        return ["for"]
    if isinstance(node, ir.Assign) and not isinstance(node.target, ir.NameTarget):
        return ["unpack"]
    return []


class Coverage:
    def __init__(self) -> None:
        self.nodes: Counter[str] = Counter()
        self.ops: Counter[str] = Counter()
        self.loops: Counter[str] = Counter()
        self.shapes: Counter[str] = Counter()
        self.boundaries: Counter[str] = Counter()
        self.node_kinds: set[str] = set()

    def install(self) -> None:
        from clauz3.interp.execute import Machine

        cov = self
        real_init = Machine.__init__

        def init(machine: Any, *args: Any, **kwargs: Any) -> None:
            real_init(machine, *args, **kwargs)
            for table in (machine._expr_dispatch, machine._stmt_dispatch):
                for cls, handler in list(table.items()):
                    cov.node_kinds.add(cls.__name__)
                    table[cls] = cov.wrap(machine, cls.__name__, handler)

        Machine.__init__ = init  # type: ignore[method-assign]

    def wrap(self, machine: Any, kind: str, handler: Any) -> Any:
        cov = self

        def counted(node: Any, env: dict[str, Any]) -> Any:
            cov.nodes[kind] += 1
            for key in op_keys(node, env):
                cov.ops[key] += 1
            if kind == "For":
                return cov.loop(machine, handler, node, env)
            value = handler(node, env)
            if kind == "SetExpr" and len(value) < len(node.elts):
                cov.shapes[SHAPES[0]] += 1
            if kind == "DictExpr" and len(value) < len(node.keys):
                cov.shapes[SHAPES[1]] += 1
            return value

        return counted

    def loop(self, machine: Any, handler: Any, node: Any, env: dict[str, Any]) -> Any:
        runs = [0]
        real_exec = machine.exec_block

        def exec_block(body: Any, e: dict[str, Any]) -> None:
            if body is node.body:
                runs[0] += 1
            real_exec(body, e)

        machine.exec_block = exec_block
        try:
            return handler(node, env)
        finally:
            machine.exec_block = real_exec
            self.loops[LOOPS[min(runs[0], 2)]] += 1

    def sampler(self, *args: Any, **kwargs: Any) -> Sampler:
        return CountingSampler(self, *args, **kwargs)

    def to_json(self) -> dict[str, Any]:
        return {"nodes": dict(sorted(self.nodes.items())), "operations": dict(sorted(self.ops.items())),
                "loops": dict(self.loops), "shapes": dict(self.shapes), "boundaries": dict(self.boundaries)}

    def shortfall(self, floor: int = FLOOR) -> list[str]:
        out = []
        for kind in sorted(self.node_kinds - set(UNREACHABLE)):
            if self.nodes[kind] < floor:
                out.append(f"IR node {kind}: {self.nodes[kind]}")
        for key, op in sorted(OPERATIONS.items()):
            if not op.refused and self.ops[key] < floor:
                out.append(f"operation {key}: {self.ops[key]}")
        for name, counter in (("loop running", self.loops), ("collection", self.shapes),
                              ("trusted result", self.boundaries)):
            for k in {"loop running": LOOPS, "collection": SHAPES, "trusted result": BOUNDARIES}[name]:
                if counter[k] < floor and not (name == "trusted result" and k in UNREACHABLE_BOUNDARIES):
                    out.append(f"{name} {k}: {counter[k]}")
        return out


class CountingSampler(Sampler):
    def __init__(self, cov: Coverage, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.cov = cov

    def value(self, t: Any, row_class: Any = None) -> Any:
        v = super().value(t, row_class)
        if isinstance(t, ir.TOptional) and v is None:
            self.cov.boundaries["None"] += 1
        if isinstance(t, (ir.TList, ir.TSet, ir.TDict)) or (isinstance(t, ir.TTuple) and t.elems is None):
            if len(v) == 0:
                self.cov.boundaries["empty"] += 1
            if len(v) == self.max_rows:
                self.cov.boundaries["maximum length"] += 1
            if isinstance(v, list) and any(v[i] == v[j] for i in range(len(v)) for j in range(i)) and \
                    isinstance(getattr(t, "elem", None), ir.TRow):
                self.cov.boundaries["repeated rows"] += 1
        return v
