"""``deal`` spellings of the clauz3 decorators (01 LEG-1).

While a layer loads, :func:`deal_spellings` replaces ``deal``'s decorators with shims that
record exactly the metadata of their clauz3 equivalents, so the checker sees one vocabulary:
``deal.pre`` ≡ ``requires``, ``deal.post``/``deal.ensure`` ≡ ``ensures``, ``deal.has(m, …)``
marks an effect, ``deal.has()`` a pure helper, ``deal.raises(…)`` and an empty ``deal.chain()``
change nothing. Every other ``deal`` decorator raises ``TypeError`` when applied (a
``layer-error``). The originals are restored when loading ends.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from clauz3.vocabulary.decorators import condition, mark

ALLOWED = ("pre", "post", "ensure", "has", "raises", "chain")
REFUSED = ("pure", "safe", "inv", "reason", "example", "dispatch", "inherit", "module_load", "cases")


def _pre(validator: Any, *, message: str | None = None, exception: Any = None) -> Callable[[Any], Any]:
    return condition("deal.pre", validator, message, exception)


def _post(validator: Any, *, message: str | None = None, exception: Any = None) -> Callable[[Any], Any]:
    return condition("deal.post", validator, message, exception)


def _ensure(validator: Any, *, message: str | None = None, exception: Any = None) -> Callable[[Any], Any]:
    return condition("deal.ensure", validator, message, exception)


def _has(*markers: Any) -> Callable[[Any], Any]:
    return mark("deal.has", trusted_marker=bool(markers), markers=tuple(markers))


def _raises(*exceptions: Any) -> Callable[[Any], Any]:
    return mark("deal.raises")


def _chain(*contracts: Any) -> Callable[[Any], Any]:
    if contracts:
        raise TypeError("deal.chain(...) with contracts is not supported on trusted code; stack the decorators")
    return mark("deal.chain")


class _Refused:
    """Stands in for a ``deal`` decorator that trusted code may not use."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError(
            f"deal.{self.name} is not allowed on trusted code "
            "(allowed: deal.pre, deal.post, deal.ensure, deal.has, deal.raises, deal.chain())"
        )

    def __getattr__(self, attr: str) -> Any:
        self()


SHIMS: dict[str, Any] = {"pre": _pre, "post": _post, "ensure": _ensure, "has": _has, "raises": _raises, "chain": _chain}
SHIMS.update({name: _Refused(name) for name in REFUSED})

_MISSING = object()


@contextmanager
def deal_spellings() -> Iterator[bool]:
    """Install the shims on the ``deal`` module for the duration; yields False when deal is absent."""
    try:
        import deal
    except ImportError:
        yield False
        return
    saved = {name: deal.__dict__.get(name, _MISSING) for name in SHIMS}
    for name, shim in SHIMS.items():
        setattr(deal, name, shim)
    try:
        yield True
    finally:
        for name, old in saved.items():
            if old is _MISSING:
                delattr(deal, name)
            else:
                setattr(deal, name, old)
