"""The builtins and methods of 01 §3.4 as data.

Each entry: name → :class:`Builtin` (proof model ``exact`` / ``abstract`` / ``none``, arity range,
result rule). The checker uses the arity; the result rule is a short tag that
``clauz3.language.expressions`` turns into a type; the parity test (01 INT-6) enumerates these
tables against the prover's models and the interpreter's implementations.
"""

from __future__ import annotations

from dataclasses import dataclass

UNBOUNDED = 1_000_000


@dataclass(frozen=True)
class Builtin:
    name: str
    model: str  # "exact", "abstract", "exact/abstract" (int: exact on numbers, abstract on str), "none"
    min_args: int
    max_args: int
    result: str  # rule tag, see expressions.py
    iterable_only: bool = False  # range / enumerate: only as for/comprehension iterables


BUILTINS: dict[str, Builtin] = {b.name: b for b in [
    Builtin("len", "exact", 1, 1, "int"),
    Builtin("abs", "exact", 1, 1, "same_numeric"),
    Builtin("round", "exact/abstract", 1, 2, "round"),
    Builtin("bool", "exact", 0, 1, "bool"),
    Builtin("float", "exact", 0, 1, "float"),
    Builtin("ord", "exact", 1, 1, "int"),
    Builtin("chr", "exact", 1, 1, "str"),
    Builtin("min", "exact", 1, UNBOUNDED, "minmax"),
    Builtin("max", "exact", 1, UNBOUNDED, "minmax"),
    Builtin("sum", "exact", 1, 2, "sum"),
    Builtin("int", "exact/abstract", 0, 1, "int"),
    Builtin("str", "exact/abstract", 0, 1, "str"),
    Builtin("list", "exact", 0, 1, "list"),
    Builtin("set", "exact", 0, 1, "set"),
    Builtin("dict", "exact", 0, 1, "dict"),
    Builtin("tuple", "exact", 0, 1, "tuple"),
    Builtin("range", "exact", 1, 3, "range", iterable_only=True),
    Builtin("enumerate", "exact", 1, 2, "enumerate", iterable_only=True),
    Builtin("print", "none", 0, UNBOUNDED, "none"),
    Builtin("math.isclose", "exact", 2, 2, "bool"),
    Builtin("math.isinf", "exact", 1, 1, "bool"),
    Builtin("math.isnan", "exact", 1, 1, "bool"),
    Builtin("math.floor", "exact", 1, 1, "int"),
    Builtin("math.ceil", "exact", 1, 1, "int"),
    Builtin("math.trunc", "exact", 1, 1, "int"),
]}

# Module-level constants of allowed modules, folded to Const.
MATH_CONSTANTS: dict[str, float] = {"math.inf": float("inf"), "math.pi": 3.141592653589793}


@dataclass(frozen=True)
class Method:
    receiver: str  # "str", "list", "set", "dict"
    name: str
    model: str
    min_args: int
    max_args: int
    result: str
    mutating: bool = False


METHODS: dict[tuple[str, str], Method] = {(m.receiver, m.name): m for m in [
    Method("str", "startswith", "exact", 1, 1, "bool"),
    Method("str", "endswith", "exact", 1, 1, "bool"),
    Method("str", "find", "exact", 1, 3, "int"),
    Method("str", "index", "exact", 1, 3, "int"),
    Method("str", "join", "exact", 1, 1, "str"),
    Method("str", "count", "abstract", 1, 1, "int"),
    Method("str", "split", "abstract", 0, 1, "list_str"),
    Method("str", "strip", "abstract", 0, 1, "str"),
    Method("str", "lstrip", "abstract", 0, 1, "str"),
    Method("str", "rstrip", "abstract", 0, 1, "str"),
    Method("str", "lower", "abstract", 0, 0, "str"),
    Method("str", "upper", "abstract", 0, 0, "str"),
    Method("str", "replace", "abstract", 2, 2, "str"),
    Method("str", "title", "abstract", 0, 0, "str"),
    Method("str", "capitalize", "abstract", 0, 0, "str"),
    Method("str", "casefold", "abstract", 0, 0, "str"),
    Method("str", "swapcase", "abstract", 0, 0, "str"),
    Method("str", "isdigit", "abstract", 0, 0, "bool"),
    Method("str", "isalpha", "abstract", 0, 0, "bool"),
    Method("str", "isalnum", "abstract", 0, 0, "bool"),
    Method("str", "isspace", "abstract", 0, 0, "bool"),
    Method("str", "islower", "abstract", 0, 0, "bool"),
    Method("str", "isupper", "abstract", 0, 0, "bool"),
    Method("list", "index", "exact", 1, 1, "int"),
    Method("list", "count", "exact", 1, 1, "int"),
    Method("list", "append", "exact", 1, 1, "none", mutating=True),
    Method("list", "extend", "exact", 1, 1, "none", mutating=True),
    Method("set", "add", "exact", 1, 1, "none", mutating=True),
    Method("dict", "get", "exact", 1, 2, "dict_get"),
    Method("dict", "keys", "exact", 0, 0, "dict_keys"),
    Method("dict", "values", "exact", 0, 0, "dict_values"),
    Method("dict", "items", "exact", 0, 0, "dict_items"),
]}

# `in` is modelled exactly on str (`str.__contains__`), lists, tuples, sets and dict keys.
OPERATORS_EXACT = ("str.__contains__",)

# Built-in exception classes a program may `raise` (01 §3.3).
EXCEPTIONS = frozenset({
    "Exception", "ValueError", "TypeError", "KeyError", "IndexError", "RuntimeError",
    "ZeroDivisionError", "ArithmeticError", "LookupError", "AssertionError", "NotImplementedError",
    "OverflowError",
})
