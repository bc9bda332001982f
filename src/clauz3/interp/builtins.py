"""Interpreter side of every builtin and method of 01 §3.4 (INT-6 parity with the prover's models).

``IMPLEMENTATIONS`` is keyed like the prover's table: builtin names (``"len"``, ``"math.floor"``)
and methods as ``"<receiver>.<method>"`` (``"str.startswith"``, ``"list.append"``, ``"dict.get"``).
Each implementation takes ``(ctx, args, kwargs)``; for methods ``args[0]`` is the receiver. The
receiver kind is enforced by calling the unbound method of the real class, so a wrong receiver
raises CPython's own ``TypeError``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, Protocol, TextIO

from clauz3.interp import semantics as sem


class Context(Protocol):
    stdout: TextIO


Impl = Callable[[Context, list[Any], dict[str, Any]], Any]


def _fixed(fn: Callable[..., Any]) -> Impl:
    """A positional builtin that also forwards keyword arguments (``int(x, base=2)``)."""

    def impl(ctx: Context, args: list[Any], kwargs: dict[str, Any]) -> Any:
        return fn(*args, **kwargs)

    return impl


def _constant(value: Any) -> Impl:
    """``math.inf`` / ``math.pi`` (the checker folds them to constants; kept for parity with proofs)."""

    def impl(ctx: Context, args: list[Any], kwargs: dict[str, Any]) -> Any:
        if args or kwargs:
            raise TypeError("a constant takes no arguments")
        return value

    return impl


def _print(ctx: Context, args: list[Any], kwargs: dict[str, Any]) -> None:
    sep = kwargs.get("sep", " ")
    end = kwargs.get("end", "\n")
    sep = " " if sep is None else sep
    end = "\n" if end is None else end
    ctx.stdout.write(sep.join(sem.text(a) for a in args) + end)
    ctx.stdout.flush()


def _range(ctx: Context, args: list[Any], kwargs: dict[str, Any]) -> range:
    return range(*args, **kwargs)


def _enumerate(ctx: Context, args: list[Any], kwargs: dict[str, Any]) -> list[tuple[int, Any]]:
    # A list, not an iterator: the interpreter only iterates it once either way, and a list
    # makes repeated evaluation (and printing in tests) deterministic.
    return list(enumerate(*args, **kwargs))


def _method(cls: type, name: str) -> Impl:
    unbound = getattr(cls, name)

    def impl(ctx: Context, args: list[Any], kwargs: dict[str, Any]) -> Any:
        return unbound(*args, **kwargs)

    impl.__name__ = f"{cls.__name__}.{name}"
    return impl


def _contains(ctx: Context, args: list[Any], kwargs: dict[str, Any]) -> bool:
    haystack, needle = args
    return str.__contains__(haystack, needle)


def _own(fn: Callable[..., Any], receiver: type | None = None) -> Impl:
    """The interpreter's own implementation (semantics.py) where CPython's differs from the proof."""

    def impl(ctx: Context, args: list[Any], kwargs: dict[str, Any]) -> Any:
        if receiver is not None and not isinstance(args[0], receiver):
            raise TypeError(f"descriptor requires a '{receiver.__name__}' object")
        return fn(*args, **kwargs)

    return impl


def _int(ctx: Context, args: list[Any], kwargs: dict[str, Any]) -> int:
    if len(args) == 1 and not kwargs and isinstance(args[0], str):
        return sem.parse_int(args[0])  # the digit limit fixed at 4,300, whatever the environment says
    return int(*args, **kwargs)


def _set(ctx: Context, args: list[Any], kwargs: dict[str, Any]) -> sem.OrderedSet:
    return sem.OrderedSet(*args, **kwargs)


def _dict(ctx: Context, args: list[Any], kwargs: dict[str, Any]) -> dict[Any, Any]:
    source = args[0] if args else ()
    pairs = list(source.items() if isinstance(source, dict) else source)
    return sem.build_dict([*pairs, *kwargs.items()])


BUILTINS: dict[str, Impl] = {
    "len": _fixed(len),
    "abs": _fixed(abs),
    "round": _fixed(round),
    "bool": _fixed(bool),
    "float": _fixed(float),
    "ord": _fixed(ord),
    "chr": _fixed(chr),
    "min": _fixed(min),
    "max": _fixed(max),
    "sum": _own(sem.left_sum),
    "int": _int,
    "str": _own(sem.text),
    "list": _fixed(list),
    "set": _set,
    "dict": _dict,
    "tuple": _fixed(tuple),
    "range": _range,
    "enumerate": _enumerate,
    "print": _print,
    "math.isclose": _fixed(math.isclose),
    "math.isinf": _fixed(math.isinf),
    "math.isnan": _fixed(math.isnan),
    "math.floor": _fixed(math.floor),
    "math.ceil": _fixed(math.ceil),
    "math.trunc": _fixed(math.trunc),
    "math.inf": _constant(math.inf),
    "math.pi": _constant(math.pi),
}

METHODS: dict[str, Impl] = {
    "str.startswith": _method(str, "startswith"),
    "str.endswith": _method(str, "endswith"),
    "str.find": _method(str, "find"),
    "str.index": _method(str, "index"),
    "str.__contains__": _contains,
    "str.join": _method(str, "join"),
    "str.count": _method(str, "count"),
    "str.split": _method(str, "split"),
    "str.strip": _method(str, "strip"),
    "str.lstrip": _method(str, "lstrip"),
    "str.rstrip": _method(str, "rstrip"),
    "str.lower": _method(str, "lower"),
    "str.upper": _method(str, "upper"),
    "str.replace": _method(str, "replace"),
    "str.title": _method(str, "title"),
    "str.capitalize": _method(str, "capitalize"),
    "str.casefold": _method(str, "casefold"),
    "str.swapcase": _method(str, "swapcase"),
    "str.isdigit": _method(str, "isdigit"),
    "str.isalpha": _method(str, "isalpha"),
    "str.isalnum": _method(str, "isalnum"),
    "str.isspace": _method(str, "isspace"),
    "str.islower": _method(str, "islower"),
    "str.isupper": _method(str, "isupper"),
    "list.index": _own(sem.index, list),
    "list.count": _own(sem.count, list),
    "list.append": _method(list, "append"),
    "list.extend": _method(list, "extend"),
    "set.add": _own(sem.OrderedSet.add, sem.OrderedSet),
    "dict.get": _own(sem.dict_get, dict),
    # Snapshots (lists), never live views: the proof reads a view once, when it is taken.
    "dict.keys": _own(lambda d: list(d), dict),
    "dict.values": _own(lambda d: list(d.values()), dict),
    "dict.items": _own(lambda d: list(d.items()), dict),
}

IMPLEMENTATIONS: dict[str, Impl] = {**BUILTINS, **METHODS}

# Calls whose arguments are stored unmodified (their provenance tags must survive, MON-1).
STORING: frozenset[str] = frozenset({"list.append", "list.extend", "set.add", "dict.get", "min", "max"})
# Calls returning a stored element unmodified (the result keeps its tag). min/max return one of their
# arguments or elements itself, and the prover keeps that value's provenance (PRED-3).
RETRIEVING: frozenset[str] = frozenset({"dict.get", "min", "max"})
# Calls that leave their receiver in place and may mutate it (never untag or copy the receiver).
MUTATING: frozenset[str] = frozenset({"list.append", "list.extend", "set.add"})
