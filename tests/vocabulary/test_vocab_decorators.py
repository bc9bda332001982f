"""Decorator metadata (docs/internals.md), run-time enforcement (EFF-3) and mirroring (EFF-2)."""

from __future__ import annotations

import functools
import inspect

import pytest

import clauz3
from clauz3.events import performs
from clauz3.fluent import effect as fluent_effect
from clauz3.fluent import fluent
from clauz3.vocabulary.meta import SOLVERS, get_meta


def _raw(to: str, body: str, *, dry: bool = False) -> int:
    return len(body)


def make_send() -> object:
    @clauz3.requires(lambda to, body, *, dry=False: "@" in to)
    @clauz3.trusted
    @clauz3.mock()
    @clauz3.ensures(lambda result: result >= 0)
    @clauz3.requires(lambda to, body, *, dry=False: len(body) < 10, message="too long", exception=ValueError)
    def send(to: str, body: str, *, dry: bool = False) -> int:
        """Send it."""
        return len(body)

    return send


def test_metadata_in_source_order() -> None:
    send = make_send()
    meta = get_meta(send)
    assert meta is not None
    assert meta.trusted and meta.mock
    assert meta.decorators == ["requires", "trusted", "mock", "ensures", "requires"]
    assert [c.spelling for c in meta.requires] == ["requires", "requires"]
    assert meta.requires[1].message == "too long" and meta.requires[1].exception is ValueError
    assert meta.requires[0].message is None and meta.requires[0].exception is None
    assert meta.ensures[0].result_only
    assert meta.original.__name__ == "send" and meta.original is not send
    assert meta.wrapper is send
    assert send.__doc__ == "Send it." and send.__name__ == "send"


def test_signature_equals_undecorated() -> None:
    send = make_send()
    assert inspect.signature(send) == inspect.signature(_raw)


def test_runtime_preconditions_and_default_message() -> None:
    send = make_send()
    assert send("a@b", "hi") == 2
    with pytest.raises(clauz3.PreconditionError) as info:
        send("nobody", "hi")
    assert str(info.value) == 'precondition of make_send.<locals>.send failed: lambda to, body, *, dry=False: "@" in to'
    with pytest.raises(ValueError, match=r"^too long$"):
        send("a@b", "x" * 20)


def test_precondition_checked_before_body() -> None:
    calls: list[str] = []

    @clauz3.trusted
    @clauz3.requires(lambda x: x > 0)
    def f(x: int) -> None:
        calls.append("ran")

    with pytest.raises(clauz3.PreconditionError):
        f(0)
    assert calls == []
    f(1)
    assert calls == ["ran"]


def test_postcondition_forms() -> None:
    @clauz3.trusted
    @clauz3.ensures(lambda a, b=2, result=None: result == a + b)
    @clauz3.ensures(lambda result: result < 100, message="big")
    def add(a: int, b: int = 2) -> int:
        return a + b if a != 7 else 0

    assert add(1) == 3 and add(1, b=5) == 6
    with pytest.raises(clauz3.PostconditionError, match=r"postcondition of .*add failed: lambda a, b=2, result=None"):
        add(7)
    with pytest.raises(clauz3.PostconditionError, match=r"^big$"):
        add(99)


def test_several_lambdas_on_one_line_are_told_apart() -> None:
    first, second = (lambda s: len(s) > 1), (lambda s: s.startswith("a"))

    @clauz3.trusted
    @clauz3.requires(first)
    @clauz3.requires(second)
    def g(s: str) -> None:
        return None

    with pytest.raises(clauz3.PreconditionError, match=r'failed: lambda s: s.startswith\("a"\)$'):
        g("bb")
    with pytest.raises(clauz3.PreconditionError, match=r"failed: lambda s: len\(s\) > 1$"):
        g("a")


@pytest.mark.parametrize(
    "pred",
    [
        lambda to: True,
        lambda to, body: True,
        lambda to, body, dry=False: True,
        lambda to, body, *, dry=True: True,
        lambda body, to, *, dry=False: True,
        lambda _: True,
        lambda *a, **k: True,
    ],
)
def test_requires_mirroring_mismatch(pred: object) -> None:
    with pytest.raises(TypeError):
        clauz3.requires(pred)(_raw)  # type: ignore[arg-type]


def test_requires_named_function_refused() -> None:
    def check(to: str, body: str, *, dry: bool = False) -> bool:
        return True

    with pytest.raises(TypeError, match="inline lambda"):
        clauz3.requires(check)


def test_ensures_mirroring() -> None:
    clauz3.ensures(lambda to, body, *, dry=False, result: True)(_raw)
    with pytest.raises(TypeError):
        clauz3.ensures(lambda to, body, *, dry=False: True)(_raw)
    with pytest.raises(TypeError):
        clauz3.ensures(lambda to, result: True)(_raw)


def test_positional_only_kinds_must_match() -> None:
    def f(a: int, /, b: int) -> None:
        return None

    clauz3.requires(lambda a, /, b: True)(f)
    with pytest.raises(TypeError):
        clauz3.requires(lambda a, b: True)(f)


def test_trusted_forms() -> None:
    def f() -> None:
        return None

    assert get_meta(clauz3.trusted()(f)).trusted  # type: ignore[union-attr]
    with pytest.raises(TypeError):
        clauz3.trusted("x")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        clauz3.mock(3)  # type: ignore[arg-type]


def test_varargs_and_bad_defaults_refused() -> None:
    def va(*args: int) -> None:
        return None

    def bad_default(x: object = object()) -> None:
        return None

    async def coro() -> None:
        return None

    with pytest.raises(TypeError, match=r"\*args"):
        clauz3.trusted(va)
    with pytest.raises(TypeError, match="literal"):
        clauz3.trusted(bad_default)
    with pytest.raises(TypeError, match="synchronous"):
        clauz3.trusted(coro)


def test_foreign_wrapper_detected() -> None:
    def f(x: int) -> int:
        return x

    wrapped = clauz3.trusted(f)

    @functools.wraps(wrapped)
    def outer(*a: object, **k: object) -> object:
        return wrapped(*a, **k)

    with pytest.raises(TypeError, match="not a clauz3 decorator"):
        clauz3.mock(outer)


def test_performs_and_fluent_effect_recorded_once() -> None:
    doors = fluent("test-doors-decorators", value=bool, initial=True)

    @clauz3.trusted
    @performs(lambda door: [])
    @fluent_effect(lambda door: doors.set(door, False))
    def unlock(door: str) -> None:
        return None

    meta = get_meta(unlock)
    assert meta is not None and meta.performs is not None and meta.fluent_effect is not None
    assert meta.decorators == ["trusted", "performs", "fluent.effect"]
    with pytest.raises(TypeError, match="at most one"):
        performs(lambda door: [])(unlock)
    with pytest.raises(TypeError):
        performs(lambda d: [])(lambda door: None)


def test_guarantee_identity_and_arity() -> None:
    spec = clauz3.spec.no_guarantees()

    def main() -> None:
        return None

    assert clauz3.guarantee(spec)(main) is main
    with pytest.raises(TypeError):
        clauz3.guarantee()
    with pytest.raises(TypeError):
        clauz3.guarantee(spec, spec)
    with pytest.raises(TypeError):
        clauz3.guarantee(spec=spec)
    with pytest.raises(TypeError):
        clauz3.guarantee("only bob")


def test_solver_registration() -> None:
    @clauz3.solver("pkg.mod.vocab_test_func", signature="(a: str) -> int")
    def model(a: str) -> int:
        return len(a)

    entry = SOLVERS["pkg.mod.vocab_test_func"]
    assert entry.real_name == "pkg.mod.vocab_test_func" and entry.signature == "(a: str) -> int"
    assert get_meta(model).solver is entry  # type: ignore[union-attr]
    assert model("abc") == 3
    with pytest.raises(ValueError):
        clauz3.solver("pkg.mod.f2", signature="(a: str")
    with pytest.raises(ValueError):
        clauz3.solver("pkg.mod.f2", signature="(a: str)")
    with pytest.raises(TypeError):
        clauz3.solver("nodots", signature="() -> int")
