"""What symbolic execution accumulates: fresh symbols, assumptions, call records, obligation sites.

Every call record and obligation instance carries the path condition (``guard``) under which it
happens; those created inside symbolic loops also carry the loops, whose index constants stay
free in their terms (specs read them existentially in the negated obligation, never with ∀).
:class:`SymbolicExecutor` is how the models the executor calls out to (ops, builtins, fresh values,
calls, specs) see it.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any, Protocol

import z3

from clauz3.language import ir


@dataclass
class LoopInfo:
    """A symbolic loop (LOOP-2): body analysed once for the free index ``index``, 0 ≤ index < length."""

    id: int
    index: z3.ArithRef
    length: Any
    line: int
    label: str
    start_seq: int = 0


@dataclass
class CallRecord:
    seq: int
    site: int
    effect: ir.Effect
    args: dict[str, Any]
    passed: tuple[str, ...]
    guard: z3.BoolRef
    line: int
    source: str
    loops: tuple[LoopInfo, ...]
    result: Any = None
    result_label: str = ""


@dataclass
class TrustedResult:
    """A trusted result the path used, for counterexamples (CEX-1 ``returns``)."""

    record: CallRecord
    value: Any


@dataclass
class Decision:
    """A branch point on the path: an ``if`` (``cond``), or a loop header (``loop`` / ``steps``)."""

    line: int
    source: str
    cond: z3.BoolRef
    guard: z3.BoolRef
    loops: tuple[LoopInfo, ...]
    loop: LoopInfo | None = None  # symbolic loop header: its length is the iteration count
    steps: list[Any] | None = None  # unrolled loop header: the entry condition of each iteration
    iteration: tuple[int, ...] = ()  # 1-based iteration of each enclosing unrolled loop, outermost first


@dataclass
class Instance:
    """One occurrence of an obligation site on some path: must have ``guard → cond``."""

    seq: int
    guard: z3.BoolRef
    cond: z3.BoolRef
    loops: tuple[LoopInfo, ...]
    details: tuple[tuple[str, Any], ...] = ()  # (label, value) shown in the why sentence
    approximate: bool = False

    @property
    def holds(self) -> z3.BoolRef:
        return z3.Implies(self.guard, self.cond)

    @property
    def fails(self) -> z3.BoolRef:
        return z3.And(self.guard, z3.Not(self.cond))


@dataclass
class Site:
    """An obligation site (merged over unrolled iterations and inlinings of one source location)."""

    kind: str  # precondition | postcondition | assertion | exception
    key: tuple[Any, ...]
    line: int
    col: int
    subject: str
    predicate: str = ""
    call: str = ""
    effect: str = ""
    module: str = ""
    source_kind: str = "generated_proof"
    exception: str = ""  # exception class name for kind exception
    message: str = ""
    expression: str = ""
    instances: list[Instance] = field(default_factory=list)


class Ctx:
    """Shared symbolic state of one proof."""

    def __init__(self, program: ir.CheckedProgram) -> None:
        self.program = program
        self.counter = 0
        self.loops: list[LoopInfo] = []
        self.assumptions: list[z3.BoolRef] = []
        self.records: list[CallRecord] = []
        self.results: list[TrustedResult] = []
        self.decisions: list[Decision] = []
        self.sites: dict[tuple[Any, ...], Site] = {}
        self.site_order: list[Site] = []
        self.instance_seq = 0
        self.abstract: set[str] = set()  # names of symbols produced by abstract models
        self.unicode_sensitive = False
        self.order_sensitive = False  # an order between unknown texts (prover/alphabet.py)
        self.lazy_facts: list[tuple[Any, Any]] = []  # (term, fact): added where the term occurs (api.py)
        self.inputs: list[tuple[str, Any]] = []
        self.input_names: set[str] = set()
        self.symbol_labels: dict[str, str] = {}
        self.all_loops: list[LoopInfo] = []

    # --------------------------------------------------------------------------- fresh symbols

    def name(self, hint: str) -> str:
        self.counter += 1
        return f"{hint}!{self.counter}"

    def fresh(self, sort: z3.SortRef, hint: str, *, abstract: bool = False, label: str = "") -> Any:
        """A fresh unconstrained term; inside symbolic loops a function of the loop indices."""
        nm = self.name(hint)
        if abstract:
            self.abstract.add(nm)
        if label:
            self.symbol_labels[nm] = label
        if not self.loops:
            return z3.Const(nm, sort)
        fn = z3.Function(nm, *[z3.IntSort() for _ in self.loops], sort)
        return fn(*[lp.index for lp in self.loops])

    def fresh_fn(self, hint: str, sort: z3.SortRef, extra: int = 1) -> Any:
        """A fresh function over the loop indices plus ``extra`` Int arguments (collection elements)."""
        nm = self.name(hint)
        fn = z3.Function(nm, *[z3.IntSort() for _ in range(len(self.loops) + extra)], sort)
        outer = [lp.index for lp in self.loops]
        return lambda *idx: fn(*outer, *idx)

    def fresh_bool(self, hint: str) -> z3.BoolRef:
        return self.fresh(z3.BoolSort(), hint, abstract=True)

    def assume(self, fact: z3.BoolRef) -> None:
        if not z3.is_true(fact):
            self.assumptions.append(fact)

    # ---------------------------------------------------------------------------- obligations

    def obligation(self, site: Site, guard: z3.BoolRef, cond: z3.BoolRef,
                   details: tuple[tuple[str, Any], ...] = (), approximate: bool = False) -> None:
        existing = self.sites.get(site.key)
        if existing is None:
            self.sites[site.key] = site
            self.site_order.append(site)
            existing = site
        self.instance_seq += 1
        existing.instances.append(Instance(self.instance_seq, guard, cond, tuple(self.loops), details,
                                           approximate))

    def all_instances(self) -> list[Instance]:
        out = [inst for s in self.site_order for inst in s.instances]
        out.sort(key=lambda i: i.seq)
        return out


@dataclass
class Frame:
    """One function's activation: its variables, the ``(guard, value)`` of each return, its file."""

    env: dict[str, Any]
    returns: list[tuple[Any, Any]] = field(default_factory=list)
    file: str = ""


class SymbolicExecutor(Protocol):
    """The executor as the modules it calls out to see it (``execute.Executor`` is the one implementation).

    The operator, builtin, fresh-value and call models are called by the executor and call back into
    it; typing them against this protocol keeps the import arrow one way (none of them imports
    ``execute.py``).
    """

    ctx: Ctx
    program: ir.CheckedProgram
    pc: Any  # the path condition of the code being executed
    pure: bool  # evaluating a condition or predicate: no obligations, no effect calls
    frame: Frame
    local_conds: list[Any]
    fn_stack: list[ir.Function]

    def under(self, cond: Any) -> AbstractContextManager[None]: ...

    def obligation(self, kind: str, key: tuple[Any, ...], line: int, col: int, subject: str, cond: Any,
                   details: tuple[tuple[str, Any], ...] = (), **extra: Any) -> None: ...

    def exception(self, name: str, node: ir.Expr | ir.Stmt, cond: Any, expression: str,
                  details: tuple[tuple[str, Any], ...] = ()) -> None: ...

    def fresh_value(self, t: ir.Type, hint: str, *, label: str = "", role: str = "",
                    record: CallRecord | None = None, abstract: bool = False) -> Any: ...

    def exec_block(self, stmts: tuple[ir.Stmt, ...]) -> None: ...

    def eval(self, e: ir.Expr) -> Any: ...

    def eval_condition(self, cond: ir.Condition, env: dict[str, Any]) -> Any: ...

    def eval_pred(self, pred: ir.Pred, record: Any) -> Any: ...

    def const(self, value: Any, kind: str = "scalar") -> Any: ...
