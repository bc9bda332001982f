"""Contract vocabulary: relations over call records and the specs built from them (01 §2.5, §2.6).

Specs are plain data holding the raw lambdas; they are never evaluated as Python. The checker
(``clauz3.language.contracts``) compiles them into ``clauz3.language.ir`` specs. Resolution of
string targets (``unknown-effect`` / ``ambiguous-effect``, REL-1) happens there, against the
layer; :func:`resolve_target` is the shared rule.
"""

from __future__ import annotations

from clauz3.vocabulary.decorators import contract
from clauz3.vocabulary.describe import bind_call, render_description
from clauz3.vocabulary.meta import CONTRACTS, SOLVERS, ContractMeta, ContractSpec, SolverMeta, get_meta

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping
    from typing import Any

    Pred = Callable[[Any], Any]

__all__ = [
    "CONTRACTS",
    "SOLVERS",
    "AggregateSpec",
    "AllSpec",
    "ChangesOnlySpec",
    "ConjunctionSpec",
    "ContractMeta",
    "ContractSpec",
    "DistinctSpec",
    "EffectRelation",
    "EmptySpec",
    "EventRelation",
    "FilteredRelation",
    "FlowSink",
    "FlowSpec",
    "NoGuaranteesSpec",
    "NoSensitiveSpec",
    "Relation",
    "SensitiveValues",
    "SharesValueSpec",
    "SolverMeta",
    "SumSpec",
    "bind_call",
    "contract",
    "effect",
    "flows",
    "no_guarantees",
    "no_sensitive_values_in",
    "render_description",
    "resolve_target",
    "sensitive",
]

def _check_pred(pred: Any, what: str) -> None:
    if not callable(pred):
        raise TypeError(f"{what} takes a lambda, got {type(pred).__name__}")


class Relation:
    """Set of call records (or events) in a trace; the base of every relation."""

    __slots__ = ()

    def where(self, pred: Pred) -> Relation:
        _check_pred(pred, "where")
        return FilteredRelation(self, pred)

    def all(self, pred: Pred) -> AllSpec:
        _check_pred(pred, "all")
        return AllSpec(self, pred)

    def empty(self) -> EmptySpec:
        return EmptySpec(self)

    def distinct(self, key: Pred) -> DistinctSpec:
        _check_pred(key, "distinct")
        return DistinctSpec(self, key)

    def count(self) -> SumSpec:
        return SumSpec(self, None)

    def sum(self, value: Pred) -> SumSpec:
        _check_pred(value, "sum")
        return SumSpec(self, value)

    def changes_only(self, fields: Iterable[str]) -> ChangesOnlySpec:
        """Every call of an update-style effect leaves each field not in ``fields`` as None (unchanged).

        An update's fields are its parameters whose default is None; the checker rejects a name that
        is not one (``contract-error``), so a typo cannot widen the guarantee.
        """
        if isinstance(fields, str):
            raise TypeError("changes_only takes a list of field names, e.g. fields=['recipient']")
        names = tuple(fields)
        for f in names:
            if not isinstance(f, str) or not f:
                raise TypeError(f"changes_only field names must be non-empty str, got {f!r}")
        return ChangesOnlySpec(self, names)

    def shares_value(self, other: Relation | type, key: Pred) -> SharesValueSpec:
        to_relation = getattr(other, "relation", None) if isinstance(other, type) else None
        if callable(to_relation):
            other = to_relation()  # an Event subclass stands for all its events
        if not isinstance(other, Relation):
            raise TypeError(f"shares_value takes a relation, got {type(other).__name__}")
        _check_pred(key, "shares_value")
        return SharesValueSpec(self, other, key)


class EffectRelation(Relation):
    """Calls of ``targets`` (effect functions or names); no targets = every effect of the layer."""

    __slots__ = ("targets",)

    def __init__(self, targets: tuple[Callable[..., Any] | str, ...]) -> None:
        self.targets = targets

    def __repr__(self) -> str:
        names = ", ".join(t if isinstance(t, str) else getattr(t, "__qualname__", "?") for t in self.targets)
        return f"effect({names})"

    def param(self, name: str) -> FlowSink:
        """``effect(log).param("count")``: a parameter whose name is also a relation method."""
        if not isinstance(name, str) or not name:
            raise TypeError("param takes a parameter name")
        return FlowSink(self, name)

    def __getattr__(self, name: str) -> FlowSink:
        """``effect(send_email).body``: that parameter of every call, as the ``into`` of a flow guarantee."""
        if name.startswith("_") or not name:
            raise AttributeError(name)
        return FlowSink(self, name)


class FilteredRelation(Relation):
    __slots__ = ("base", "pred")

    def __init__(self, base: Relation, pred: Pred) -> None:
        self.base = base
        self.pred = pred

    def __repr__(self) -> str:
        return f"{self.base!r}.where(…)"


class EventRelation(Relation):
    """Events of ``event_cls`` and its subclasses, filtered by every predicate in ``filters``."""

    __slots__ = ("event_cls", "filters")

    def __init__(self, event_cls: type, filters: tuple[Pred, ...] = ()) -> None:
        self.event_cls = event_cls
        self.filters = filters

    def where(self, pred: Pred) -> EventRelation:
        _check_pred(pred, "where")
        return EventRelation(self.event_cls, (*self.filters, pred))

    def __repr__(self) -> str:
        return f"{self.event_cls.__name__}" + ".where(…)" * len(self.filters)


def effect(*targets: Callable[..., Any] | str) -> EffectRelation:
    """Relation over calls of the target effects (functions or effect names)."""
    for t in targets:
        if isinstance(t, str):
            if not t:
                raise TypeError("effect() names must be non-empty")
            continue
        meta = get_meta(t)
        if meta is None or not meta.trusted:
            raise TypeError(f"effect() takes effect functions or names, got {getattr(t, '__qualname__', t)!r}")
    return EffectRelation(tuple(targets))


# ----------------------------------------------------------------------------------- specs


class AllSpec(ContractSpec):
    __slots__ = ("pred", "relation")

    def __init__(self, relation: Relation, pred: Pred) -> None:
        self.relation = relation
        self.pred = pred

    def __repr__(self) -> str:
        return f"{self.relation!r}.all(…)"


class EmptySpec(ContractSpec):
    __slots__ = ("relation",)

    def __init__(self, relation: Relation) -> None:
        self.relation = relation

    def __repr__(self) -> str:
        return f"{self.relation!r}.empty()"


class DistinctSpec(ContractSpec):
    __slots__ = ("key", "relation")

    def __init__(self, relation: Relation, key: Pred) -> None:
        self.relation = relation
        self.key = key

    def __repr__(self) -> str:
        return f"{self.relation!r}.distinct(…)"


class SumSpec:
    """``R.count()`` (``value`` None) or ``R.sum(value)``; compared with an ``int`` it becomes a spec."""

    __slots__ = ("relation", "value")

    def __init__(self, relation: Relation, value: Pred | None) -> None:
        self.relation = relation
        self.value = value

    def _cmp(self, op: str, n: Any) -> AggregateSpec:
        if type(n) is not int:
            raise TypeError("aggregates compare with int")
        return AggregateSpec(self, op, n)

    def __le__(self, n: Any) -> AggregateSpec:
        return self._cmp("<=", n)

    def __lt__(self, n: Any) -> AggregateSpec:
        return self._cmp("<", n)

    def __ge__(self, n: Any) -> AggregateSpec:
        return self._cmp(">=", n)

    def __gt__(self, n: Any) -> AggregateSpec:
        return self._cmp(">", n)

    def __eq__(self, n: Any) -> AggregateSpec:  # type: ignore[override]  # == builds a contract (the guarantee language), not a bool
        return self._cmp("==", n)

    def __ne__(self, n: Any) -> AggregateSpec:  # type: ignore[override]  # != builds a contract (the guarantee language), not a bool
        return self._cmp("!=", n)

    __hash__ = object.__hash__

    def __bool__(self) -> bool:
        raise TypeError("an aggregate has no truth value; compare it with an int")

    def __repr__(self) -> str:
        return f"{self.relation!r}.count()" if self.value is None else f"{self.relation!r}.sum(…)"


class AggregateSpec(ContractSpec):
    """``sum_spec <op> n`` with ``op`` one of ``<= < >= > == !=``."""

    __slots__ = ("n", "op", "sum_spec")

    def __init__(self, sum_spec: SumSpec, op: str, n: int) -> None:
        self.sum_spec = sum_spec
        self.op = op
        self.n = n

    @property
    def relation(self) -> Relation:
        return self.sum_spec.relation

    @property
    def value(self) -> Pred | None:
        return self.sum_spec.value

    def __bool__(self) -> bool:
        # ``count() == 1`` must never silently act as a boolean in Python code.
        raise TypeError("a spec has no truth value")

    def __repr__(self) -> str:
        return f"{self.sum_spec!r} {self.op} {self.n}"


class SharesValueSpec(ContractSpec):
    __slots__ = ("key", "left", "right")

    def __init__(self, left: Relation, right: Relation, key: Pred) -> None:
        self.left = left
        self.right = right
        self.key = key

    @property
    def A(self) -> Relation:
        return self.left

    @property
    def B(self) -> Relation:
        return self.right

    def __repr__(self) -> str:
        return f"{self.left!r}.shares_value({self.right!r}, …)"


class ChangesOnlySpec(ContractSpec):
    """``R.changes_only(fields)``: the checker compiles it into ``R.all(e.f == None and …)``."""

    __slots__ = ("fields", "relation")

    def __init__(self, relation: Relation, fields: tuple[str, ...]) -> None:
        self.relation = relation
        self.fields = fields

    def __repr__(self) -> str:
        return f"{self.relation!r}.changes_only({list(self.fields)!r})"


class ConjunctionSpec(ContractSpec):
    """Every member spec holds."""

    __slots__ = ("specs",)

    def __init__(self, specs: Iterable[ContractSpec]) -> None:
        if isinstance(specs, ContractSpec):
            raise TypeError("ConjunctionSpec takes an iterable of specs, e.g. ConjunctionSpec([a, b])")
        items = tuple(specs)
        for s in items:
            if not isinstance(s, ContractSpec):
                raise TypeError(f"ConjunctionSpec members must be ContractSpecs, got {type(s).__name__}")
        self.specs = items

    def __repr__(self) -> str:
        return f"ConjunctionSpec({list(self.specs)!r})"


class NoGuaranteesSpec(ContractSpec):
    """Always holds ("promises nothing")."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "no_guarantees()"


def no_guarantees() -> NoGuaranteesSpec:
    return NoGuaranteesSpec()


class SensitiveValues:
    """Values a trusted layer holds as sensitive (issue 20); ``what`` names them in words for the card.

    Only the layer declares them (a contract helper is trusted code); the checker keeps digests of
    them, never the values (``clauz3.language.sensitive``), and ``repr`` does not show them.
    """

    __slots__ = ("values", "what")

    def __init__(self, what: str, values: tuple[str, ...]) -> None:
        self.what = what
        self.values = values

    def __repr__(self) -> str:
        return f"sensitive({self.what!r}, <{len(self.values)} values>)"


def sensitive(what: str, *values: str) -> SensitiveValues:
    """Declare values the layer holds as sensitive: ``sensitive("your passport number", "HGK137803")``."""
    if not isinstance(what, str) or not what:
        raise TypeError("sensitive() takes the values' name in words first, e.g. sensitive('your password', …)")
    for v in values:
        if not isinstance(v, str) or not v:
            raise TypeError("sensitive values must be non-empty str")
    return SensitiveValues(what, tuple(values))


class NoSensitiveSpec(ContractSpec):
    """No call of ``relation`` passes any of ``values`` inside its text parameter ``field``."""

    __slots__ = ("field", "relation", "values")

    def __init__(self, relation: Relation, field: str, values: SensitiveValues) -> None:
        self.relation = relation
        self.field = field
        self.values = values

    def __repr__(self) -> str:
        return f"no_sensitive_values_in({self.relation!r}.{self.field}, {self.values!r})"


def no_sensitive_values_in(relation: Relation, field: str, values: SensitiveValues) -> NoSensitiveSpec:
    """``no_sensitive_values_in(effect(send_email), "body", SECRETS)``: effect.param never holds one of them.

    The test is a substring after NFKC and case folding; the monitor checks it at each call with the
    real argument, the prover where the argument is a known text (otherwise it cannot prove it).
    """
    if not isinstance(relation, Relation):
        raise TypeError(f"no_sensitive_values_in takes a relation first, got {type(relation).__name__}")
    if not isinstance(field, str) or not field:
        raise TypeError("no_sensitive_values_in takes a parameter name, e.g. 'body'")
    if not isinstance(values, SensitiveValues):
        raise TypeError("no_sensitive_values_in takes values declared with clauz3.spec.sensitive(…)")
    return NoSensitiveSpec(relation, field, values)


class FlowSink:
    """``effect(send_email).body``: the parameter ``param`` of every call of ``relation``'s effects."""

    __slots__ = ("param", "relation")

    def __init__(self, relation: EffectRelation, param: str) -> None:
        self.relation = relation
        self.param = param

    def __repr__(self) -> str:
        return f"{self.relation!r}.{self.param}"


class FlowSpec(ContractSpec):
    """Issue 20: what the values passed in ``sinks`` may derive from.

    ``mode`` ``never``: no value read by a ``sources`` effect reaches a sink; ``only``: every effect a
    sink's value derives from is among ``sources``. Derivation counts every operation, branch
    conditions (implicit flow) and loops (docs/provenance.md).
    """

    __slots__ = ("mode", "sinks", "sources")

    def __init__(self, mode: str, sources: tuple[Callable[..., Any] | str, ...], sinks: tuple[FlowSink, ...]) -> None:
        self.mode = mode
        self.sources = sources
        self.sinks = sinks

    def __repr__(self) -> str:
        return f"flows.{self.mode}(from_={list(self.sources)!r}, into={list(self.sinks)!r})"


def _flow_sources(from_: Any) -> tuple[Callable[..., Any] | str, ...]:
    items = list(from_) if isinstance(from_, list | tuple) else [from_]
    out: list[Callable[..., Any] | str] = []
    for item in items:
        if isinstance(item, EffectRelation):
            if not item.targets:
                raise TypeError("flows: from_ takes named effects, not effect() of every effect")
            out.extend(item.targets)
        elif isinstance(item, str) and item:
            out.append(item)
        elif callable(item):
            meta = get_meta(item)
            if meta is None or not meta.trusted:
                raise TypeError(f"flows: from_ takes effect functions or names, got {getattr(item, '__qualname__', item)!r}")
            out.append(item)
        else:
            raise TypeError(f"flows: from_ takes effect functions or names, got {item!r}")
    return tuple(out)


def _flow_sinks(into: Any) -> tuple[FlowSink, ...]:
    items = list(into) if isinstance(into, list | tuple) else [into]
    if not items:
        raise TypeError("flows: into takes at least one effect parameter, e.g. into=effect(send_email).body")
    for item in items:
        if not isinstance(item, FlowSink):
            raise TypeError(f"flows: into takes effect parameters such as effect(send_email).body (or "
                            f"effect(send_email).param('count') for a name a relation method has), got {item!r}")
        if not item.relation.targets:
            raise TypeError("flows: into takes a parameter of named effects, e.g. effect(send_email).body")
    return tuple(items)


class _Flows:
    """``flows.never(from_=…, into=…)`` and ``flows.only(from_=[…], into=…)`` (issue 20)."""

    __slots__ = ()

    def never(self, *, from_: Any, into: Any) -> FlowSpec:
        """Nothing a ``from_`` effect returns reaches ``into``: ``flows.never(from_=get_webpage,
        into=effect(send_direct_message).body)``."""
        sources = _flow_sources(from_)
        if not sources:
            raise TypeError("flows.never takes at least one effect in from_")
        return FlowSpec("never", sources, _flow_sinks(into))

    def only(self, *, from_: Any, into: Any) -> FlowSpec:
        """``into`` derives from no effect outside ``from_`` (``from_=[]``: only from the program's
        own literals)."""
        return FlowSpec("only", _flow_sources(from_), _flow_sinks(into))

    def __repr__(self) -> str:
        return "flows"


flows = _Flows()


def resolve_target(target: Callable[..., Any] | str, effects: Mapping[str, Callable[..., Any]]) -> list[str]:
    """Qualified effect names a target denotes in a layer's ``effects`` (REL-1).

    A function resolves by identity; a name matches an effect whose qualified name equals it or
    ends with ``.<name>``. The caller reports ``unknown-effect`` for no match and
    ``ambiguous-effect`` for several.
    """
    if not isinstance(target, str):
        return [q for q, fn in effects.items() if fn is target]
    if target in effects:
        return [target]
    suffix = "." + target
    return [q for q in effects if q.endswith(suffix)]
