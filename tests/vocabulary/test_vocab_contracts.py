"""Contract registration, templates (CON-4), rendering (CON-5), binding (CON-6), relations (§2.6)."""

from __future__ import annotations

import pytest

import clauz3
from clauz3.events import Event
from clauz3.fluent import FluentFinalAllSpec, FluentFinalSpec, fluent
from clauz3.policy import domain_policy
from clauz3.spec import (
    CONTRACTS,
    AggregateSpec,
    AllSpec,
    ConjunctionSpec,
    ContractSpec,
    DistinctSpec,
    EffectRelation,
    EmptySpec,
    EventRelation,
    FilteredRelation,
    NoGuaranteesSpec,
    SharesValueSpec,
    SumSpec,
    bind_call,
    contract,
    effect,
    no_guarantees,
    render_description,
    resolve_target,
)


@clauz3.trusted
def send_email(to: str, body: str) -> None:
    return None


@contract(description="at most {count} emails")
def at_most(count: int) -> ContractSpec:
    return effect(send_email).count() <= count


@contract()
def only(addresses: list[str], note: str = "x") -> ContractSpec:
    """Emails only the given
    addresses.

    Second paragraph."""
    return effect(send_email).all(lambda e: e.to in addresses)


@contract
def bare() -> ContractSpec:
    return no_guarantees()


class Sent(Event):
    to: str
    size: int


def test_registry_keys_and_meta() -> None:
    meta = CONTRACTS[f"{__name__}.at_most"]
    assert meta.fn is at_most and meta.qualname == "at_most" and meta.module == __name__
    assert meta.description_template == "at most {count} emails"
    assert meta.file == __file__ and meta.line > 0
    assert at_most.__clauz3_contract__ is meta  # type: ignore[attr-defined]
    assert f"{__name__}.only" in CONTRACTS and f"{__name__}.bare" in CONTRACTS


@pytest.mark.parametrize(
    "template",
    ["{cnt} emails", "{count:>3}", "{count!r}", "{count.real}", "{count[0]}", "{}", "{0}", "at most", "{count", "}{count}"],
)
def test_bad_templates(template: str) -> None:
    def helper(count: int) -> ContractSpec:
        return no_guarantees()

    helper.__qualname__ = "helper_bad_template"  # stands in for a module-level helper
    with pytest.raises(ValueError):
        contract(description=template)(helper)


def test_template_escapes_and_non_scalar_param() -> None:
    def helper(count: int) -> ContractSpec:
        return no_guarantees()

    def rows(where: dict[str, int]) -> ContractSpec:
        return no_guarantees()

    helper.__qualname__ = helper.__name__ = "helper_escape"
    rows.__qualname__ = "rows_helper"
    contract(description="{{literal}} {count}")(helper)
    meta = CONTRACTS[f"{__name__}.helper_escape"]
    assert render_description(meta, {"count": 2}) == "{literal} 2"
    with pytest.raises(ValueError, match="cannot appear"):
        contract(description="{where}")(rows)


def test_contract_misuse() -> None:
    with pytest.raises(TypeError):
        contract(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        contract(description=3)  # type: ignore[arg-type]

    def outer() -> None:
        def inner() -> ContractSpec:
            return no_guarantees()

        contract(inner)

    with pytest.raises(TypeError, match="module-level"):
        outer()


def test_render_values() -> None:
    meta = CONTRACTS[f"{__name__}.only"]
    bound, text = bind_call(meta, (["bob@x.y", 'q"uote'],), {})
    assert bound == {"addresses": ["bob@x.y", 'q"uote'], "note": "x"}
    assert text == f'{__name__}.only(addresses=["bob@x.y", "q\\"uote"], note="x")'
    assert render_description(meta, bound) == "Emails only the given addresses."
    assert render_description(CONTRACTS[f"{__name__}.bare"], {}) is None
    from clauz3.vocabulary.describe import render_value

    assert render_value({3, 1, 2}) == "[1, 2, 3]"
    assert render_value(True) == "True" and render_value(None) == "None" and render_value(1.5) == "1.5"
    assert render_value(clauz3.FilePath("./a/b")) == '"a/b"'
    long = render_value("x" * 600)
    assert long.endswith("… (+102 chars)") and long.startswith('"xxx') and len(long) == 500 + len("… (+102 chars)")


def test_bind_errors_and_library_name() -> None:
    meta = CONTRACTS[f"{__name__}.at_most"]
    assert bind_call(meta, (), {"count": 1})[1] == f"{__name__}.at_most(count=1)"
    with pytest.raises(TypeError):
        bind_call(meta, (1, 2), {})
    with pytest.raises(TypeError):
        bind_call(meta, (), {"cnt": 1})
    from clauz3.vocabulary.meta import library_name

    assert library_name("tools.email.trusted.contracts") == "email"
    assert library_name("tools.acme.lims.trusted.contracts") == "acme.lims"
    assert library_name("other.module") is None


def test_relation_objects() -> None:
    rel = effect(send_email, "send_email")
    assert isinstance(rel, EffectRelation) and rel.targets == (send_email, "send_email")
    pred = lambda e: e.to == "bob"  # noqa: E731
    filtered = rel.where(pred)
    assert isinstance(filtered, FilteredRelation) and filtered.base is rel and filtered.pred is pred
    assert isinstance(rel.all(pred), AllSpec) and rel.all(pred).pred is pred
    assert isinstance(rel.empty(), EmptySpec)
    assert isinstance(rel.distinct(pred), DistinctSpec)
    count = rel.count()
    assert isinstance(count, SumSpec) and count.value is None
    for spec, op in [(count <= 1, "<="), (count < 1, "<"), (count >= 1, ">="), (count > 1, ">"), (count == 1, "=="),
                     (count != 1, "!=")]:
        assert isinstance(spec, AggregateSpec) and spec.op == op and spec.n == 1 and spec.sum_spec is count
    assert (3 >= count).op == "<="
    for bad in ("3", 1.5, True, None):
        with pytest.raises(TypeError, match="aggregates compare with int"):
            count <= bad  # noqa: B015
    shares = rel.shares_value(effect(), pred)
    assert isinstance(shares, SharesValueSpec) and shares.left is rel and shares.A is rel
    assert effect().targets == ()
    with pytest.raises(TypeError):
        effect(len)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        rel.all("x")  # type: ignore[arg-type]


def test_conjunction_and_no_guarantees() -> None:
    a, b = effect().empty(), no_guarantees()
    conj = ConjunctionSpec([a, b])
    assert conj.specs == (a, b) and isinstance(b, NoGuaranteesSpec)
    with pytest.raises(TypeError):
        ConjunctionSpec([a, effect().count()])  # type: ignore[list-item]


def test_event_classes() -> None:
    ev = Sent(to="a", size=1)
    assert ev == Sent("a", 1)
    with pytest.raises(Exception):  # noqa: B017 - frozen dataclass
        ev.to = "b"  # type: ignore[misc]
    rel = Sent.where(lambda e: e.size > 1).where(lambda e: e.to == "x")
    assert isinstance(rel, EventRelation) and rel.event_cls is Sent and len(rel.filters) == 2
    assert isinstance(Sent.all(lambda e: True), AllSpec)
    assert isinstance(Sent.count() <= 2, AggregateSpec)
    assert isinstance(Sent.shares_value(Sent, lambda e: e.to), SharesValueSpec)
    with pytest.raises(TypeError, match="reserved"):
        type("Bad", (Event,), {"__annotations__": {"count": int}})
    with pytest.raises(TypeError, match="str, int or bool"):
        type("Bad2", (Event,), {"__annotations__": {"x": float}})


def test_fluents() -> None:
    doors = fluent("vocab-test-doors", value=bool, initial=True)
    upd = doors.set("front", False)
    assert upd.fluent is doors and upd.key == "front" and upd.value is False
    spec = doors.final["front"] == False  # noqa: E712
    assert isinstance(spec, FluentFinalSpec) and (spec.op, spec.key, spec.value) == ("==", "front", False)
    assert (doors.final["back"] != True).op == "!="  # noqa: E712
    assert isinstance(doors.final.all(lambda item: item.value), FluentFinalAllSpec)
    with pytest.raises(TypeError):
        doors.final["front"] == 1  # noqa: B015
    with pytest.raises(TypeError):
        doors.final[3]
    with pytest.raises(TypeError):
        fluent("x-bad", value=float, initial=1.0)
    with pytest.raises(TypeError):
        fluent("x-bad2", value=int, initial=True)
    with pytest.raises(ValueError):
        fluent("vocab-test-doors", value=bool, initial=True)


def test_domain_policy_shapes() -> None:
    p = domain_policy(when_used="send_email", recommended=["at_most"], label="Email")
    assert p.when_used == ("send_email",) and p.recommended == ("at_most",) and p.required == () and p.label == "Email"
    with pytest.raises(TypeError):
        domain_policy(when_used=[])
    with pytest.raises(TypeError):
        domain_policy(when_used="x", required="at_most")


def test_resolve_target_rule() -> None:
    effects = {"tools.a.trusted.e.send": send_email, "tools.a.trusted.f.send": len, "tools.a.trusted.e.other": min}
    assert resolve_target(send_email, effects) == ["tools.a.trusted.e.send"]
    assert resolve_target("other", effects) == ["tools.a.trusted.e.other"]
    assert len(resolve_target("send", effects)) == 2
    assert resolve_target("nope", effects) == []
