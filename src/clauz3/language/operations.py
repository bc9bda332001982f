"""One table of the operations of the checked subset (issue 18): what each accepts, gives and raises.

Every builtin, method, operator and statement-level operation the checker accepts has one
:class:`Operation` here: its *domain* (the argument kinds it is checked and tested on), its
*result* kind, every exception it can raise (and when), and, where clauz3 deliberately differs
from CPython, the note an agent is shown (``divergence``). The interpreter (``interp/``) and the
prover (``prover/``) sit above this module and are checked against it, not the other way round:

* ``tests/soundness/test_operations.py`` — every operation the checker accepts has an entry; every
  entry is implemented by both sides; and a per-operation differential test evaluates the
  interpreter and the prover's encoding at the same concrete values (literals, so the prover can
  fold, and parameters, so it cannot) and compares results and exceptions, edge values first.
* ``tests/soundness/test_raise_sites.py`` — every place the interpreter can raise maps to the
  obligation that rules it out.

Kinds are written as the program's annotations (``int``, ``list[int]``, ``dict[str, int]``,
``int | None``); ``int!`` is an int that must be a literal (``round(x, 2)``, ``range(3)``) and
``nat!`` a literal int from 0 to 64 (an ``int ** int`` exponent). A ``template`` builds the
operation from its arguments ``{0}``, ``{1}``… and binds the result to ``r``.
"""

from __future__ import annotations

from dataclasses import dataclass

NUMBERS = ("bool", "int", "float")


@dataclass(frozen=True)
class Raises:
    exception: str
    when: str


@dataclass(frozen=True)
class Operation:
    key: str  # "len", "str.find", "+", "<", "unary -", "subscript", "for"…
    form: str  # builtin | method | binop | unary | compare | boolop | statement
    domain: tuple[tuple[str, ...], ...]  # accepted argument kinds, one tuple per signature
    result: str  # the result kind (a rule where it depends on the arguments)
    raises: tuple[Raises, ...] = ()
    template: str = ""  # the source that applies it to {0}, {1}…, binding r; default by form
    divergence: str = ""  # where clauz3 deliberately differs from CPython: the note an agent sees
    refused: str = ""  # listed by the builtins table but refused by the checker today (why)

    def source(self, args: list[str]) -> str:
        """The statements (one per line) that apply this operation to ``args`` and bind ``r``."""
        if "{args}" in self.template:  # range / enumerate: the arguments spliced as one list
            return self.template.format(args=", ".join(args))
        if self.template:
            return self.template.format(*args)
        if self.form == "builtin":
            return f"r = {self.key}({', '.join(args)})"
        if self.form == "method":
            return f"r = {args[0]}.{self.key.split('.', 1)[1]}({', '.join(args[1:])})"
        if self.form == "binop":
            return f"r = {args[0]} {self.key} {args[1]}"
        if self.form == "compare":
            op = {"not_in": "not in", "is_not": "is not"}.get(self.key, self.key)
            return f"r = {args[0]} {op} {args[1]}"
        if self.form == "unary":
            op = self.key.split(" ", 1)[1]
            return f"r = {op} {args[0]}" if op == "not" else f"r = {op}{args[0]}"
        if self.form == "boolop":
            return f"r = {args[0]} {self.key} {args[1]}"
        raise ValueError(f"{self.key}: a statement operation needs a template")


def _pairs(kinds: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    return tuple((a, b) for a in kinds for b in kinds)


def R(exception: str, when: str) -> Raises:
    return Raises(exception, when)


TO_FLOAT = R("OverflowError", "an int operand is too large for a float (int → float conversion)")
ZERO = R("ZeroDivisionError", "the right operand is zero")
NUM_PAIRS = _pairs(NUMBERS)
SCALARS = ("bool", "int", "float", "str", "None")
COLLECTIONS = ("list[int]", "list[str]", "tuple[int, ...]", "set[int]", "set[str]", "dict[str, int]")
ANY = (*SCALARS, *COLLECTIONS, "int | None")
ITERABLES = ("list[int]", "list[str]", "tuple[int, ...]", "set[int]", "set[str]", "dict[str, int]", "str")
SNAPSHOT = ("the loop visits the collection as it was when the loop began; items added or changed inside it "
            "are not visited")
SET_ORDER = "a set iterates in insertion order (CPython's order depends on hashing)"
NAN_EQ = "a NaN is never found by identity: `x in [x]` is False for a NaN, as `x == x` is"

OPERATIONS_LIST: list[Operation] = [
    # ------------------------------------------------------------------ arithmetic and bits
    Operation("+", "binop", (*NUM_PAIRS, ("str", "str"), ("list[int]", "list[int]"),
                              ("tuple[int, ...]", "tuple[int, ...]")), "join of the operands",
              (TO_FLOAT,)),
    Operation("-", "binop", NUM_PAIRS, "numeric join (bool → int)", (TO_FLOAT,)),
    Operation("*", "binop", (*NUM_PAIRS, ("str", "int"), ("int", "str"), ("list[int]", "int")),
              "numeric join, or the sequence",
              (TO_FLOAT, R("OverflowError", "a repeated str would pass sys.maxsize characters"))),
    Operation("/", "binop", NUM_PAIRS, "float",
              (ZERO, TO_FLOAT, R("OverflowError", "int / int whose quotient is too large for a float"))),
    Operation("//", "binop", NUM_PAIRS, "numeric join (bool → int)", (ZERO, TO_FLOAT)),
    Operation("%", "binop", NUM_PAIRS, "numeric join (bool → int)", (ZERO, TO_FLOAT)),
    Operation("**", "binop", (("int", "nat!"), ("bool", "nat!"), ("float", "float"), ("float", "int"),
                              ("int", "float"), ("float", "nat!")), "int for int ** literal, else float",
              (R("ZeroDivisionError", "0.0 raised to a negative power"),
               R("OverflowError", "the float result is too large, or an int operand too large for a float"),
               R("ValueError", "a negative float raised to a fractional power (CPython: a complex)"))),
    Operation("&", "binop", (("bool", "bool"), ("int", "int"), ("bool", "int"), ("int", "bool")),
              "bool for two bools, else int"),
    Operation("|", "binop", (("bool", "bool"), ("int", "int"), ("bool", "int"), ("int", "bool")),
              "bool for two bools, else int"),
    Operation("^", "binop", (("bool", "bool"), ("int", "int"), ("bool", "int"), ("int", "bool")),
              "bool for two bools, else int"),
    Operation("<<", "binop", (("int", "int"), ("bool", "int"), ("int", "bool")), "int",
              (R("ValueError", "a negative shift count"),
               R("OverflowError", "a shift count too large for a C ssize_t"))),
    Operation(">>", "binop", (("int", "int"), ("bool", "int"), ("int", "bool")), "int",
              (R("ValueError", "a negative shift count"),)),
    Operation("unary -", "unary", (("bool",), ("int",), ("float",)), "int for bool, else the operand's"),
    Operation("unary +", "unary", (("bool",), ("int",), ("float",)), "int for bool, else the operand's"),
    Operation("unary ~", "unary", (("bool",), ("int",)), "int"),
    Operation("unary not", "unary", tuple((k,) for k in ANY), "bool"),
    # ------------------------------------------------------------------ comparisons
    Operation("==", "compare", (*((k, k) for k in ANY), ("int", "float"), ("bool", "int"), ("int", "str")),
              "bool", divergence=NAN_EQ),
    Operation("!=", "compare", (*((k, k) for k in ANY), ("int", "float"), ("bool", "int"), ("int", "str")),
              "bool", divergence=NAN_EQ),
    *[Operation(op, "compare", (*NUM_PAIRS, ("str", "str"), ("list[int]", "list[int]"),
                                ("tuple[int, ...]", "tuple[int, ...]"), ("set[int]", "set[int]")), "bool",
                (R("TypeError", "operands of kinds Python cannot order (a set is ordered by inclusion)"),))
      for op in ("<", "<=", ">", ">=")],
    Operation("in", "compare", (("str", "str"), ("int", "list[int]"), ("int", "tuple[int, ...]"),
                                ("int", "set[int]"), ("str", "set[str]"), ("str", "dict[str, int]"),
                                ("float", "list[float]")), "bool", divergence=NAN_EQ),
    Operation("not_in", "compare", (("str", "str"), ("int", "list[int]"), ("int", "set[int]"),
                                    ("str", "dict[str, int]")), "bool", divergence=NAN_EQ),
    Operation("is", "compare", (("int | None", "None"),), "bool"),
    Operation("is_not", "compare", (("int | None", "None"),), "bool"),
    Operation("and", "boolop", tuple((k, k) for k in ANY), "the deciding operand"),
    Operation("or", "boolop", tuple((k, k) for k in ANY), "the deciding operand"),
    Operation("ifexp", "statement", tuple(("bool", k, k) for k in SCALARS), "the chosen operand",
              template="r = {1} if {0} else {2}"),
    # ------------------------------------------------------------------ builtins
    Operation("len", "builtin", tuple((k,) for k in ITERABLES), "int"),
    Operation("abs", "builtin", (("bool",), ("int",), ("float",)), "int for bool, else the operand's"),
    Operation("round", "builtin", (("float",), ("int",), ("bool",), ("float", "int!"), ("int", "int!")),
              "int for one argument, else the first argument's kind",
              (R("ValueError", "round(NaN)"), R("OverflowError", "round(±inf), or a decimal rounding too large"))),
    Operation("bool", "builtin", tuple((k,) for k in ANY), "bool", refused="the checker refuses `bool(x)` (write "
              "the comparison it means)"),
    Operation("float", "builtin", (("bool",), ("int",), ("float",), ("str",)), "float",
              (R("ValueError", "text that is not a float"), TO_FLOAT)),
    Operation("ord", "builtin", (("str",),), "int", (R("TypeError", "text whose length is not 1"),)),
    Operation("chr", "builtin", (("int",),), "str",
              (R("ValueError", "a code point outside 0..0x10FFFF"),
               R("OverflowError", "an int too large for a C int"))),
    *[Operation(name, "builtin", (("list[int]",), ("list[float]",), ("list[str]",), ("set[int]",),
                                  ("int", "int"), ("float", "float"), ("int", "float"), ("str", "str"),
                                  ("int", "int", "int")), "the element or argument kind",
                (R("ValueError", f"{name}() of an empty collection"),))
      for name in ("min", "max")],
    Operation("sum", "builtin", (("list[int]",), ("list[float]",), ("list[int]", "int"), ("list[float]", "float"),
                                 ("list[int]", "float"), ("set[int]",)), "numeric join of start and elements",
              (TO_FLOAT,), divergence="sum adds left to right with + on every Python version (CPython ≥ 3.12 "
                                      "compensates float sums)"),
    Operation("int", "builtin", (("bool",), ("int",), ("float",), ("str",)), "int",
              (R("ValueError", "int(NaN), or text that is not an int of at most 4,300 digits"),
               R("OverflowError", "int(±inf)"))),
    Operation("str", "builtin", tuple((k,) for k in (*SCALARS, "int | None")), "str"),
    *[Operation(name, "builtin", (("list[int]",), ("set[int]",), ("tuple[int, ...]",), ("dict[str, int]",),
                                  ("str",)), name, divergence=SET_ORDER if name == "set" else "")
      for name in ("list", "tuple", "set")],
    Operation("dict", "builtin", (("dict[str, int]",),), "dict"),
    Operation("range", "builtin", (("int!",), ("int!", "int!"), ("int!", "int!", "int!")), "range (iterable only)",
              (R("ValueError", "a step of zero"),), template="r = [x for x in range({args})]"),
    Operation("enumerate", "builtin", (("list[int]",), ("set[int]",), ("str",), ("dict[str, int]",),
                                       ("list[str]", "int!")), "(int, element) pairs (iterable only)",
              template="r = [p for p in enumerate({args})]", divergence=SET_ORDER),
    Operation("print", "builtin", tuple((k,) for k in ANY), "None"),
    Operation("math.isclose", "builtin", (("float", "float"), ("int", "float"), ("float", "int")), "bool",
              (TO_FLOAT, R("ValueError", "a negative tolerance"))),
    Operation("math.isinf", "builtin", (("float",), ("int",)), "bool", (TO_FLOAT,)),
    Operation("math.isnan", "builtin", (("float",), ("int",)), "bool", (TO_FLOAT,)),
    *[Operation(f"math.{name}", "builtin", (("float",), ("int",), ("bool",)), "int",
                (R("ValueError", "NaN"), R("OverflowError", "±inf")))
      for name in ("floor", "ceil", "trunc")],
    # ------------------------------------------------------------------ str methods
    Operation("str.startswith", "method", (("str", "str"),), "bool"),
    Operation("str.endswith", "method", (("str", "str"),), "bool"),
    Operation("str.find", "method", (("str", "str"), ("str", "str", "int"), ("str", "str", "int", "int")), "int"),
    Operation("str.index", "method", (("str", "str"), ("str", "str", "int"), ("str", "str", "int", "int")), "int",
              (R("ValueError", "the text is not found"),)),
    Operation("str.join", "method", (("str", "list[str]"),), "str"),
    Operation("str.count", "method", (("str", "str"),), "int"),
    Operation("str.split", "method", (("str",), ("str", "str")), "list[str]",
              (R("ValueError", "an empty separator"),)),
    *[Operation(f"str.{name}", "method", (("str",), ("str", "str")), "str") for name in ("strip", "lstrip", "rstrip")],
    *[Operation(f"str.{name}", "method", (("str",),), "str")
      for name in ("lower", "upper", "title", "capitalize", "casefold", "swapcase")],
    Operation("str.replace", "method", (("str", "str", "str"),), "str"),
    *[Operation(f"str.{name}", "method", (("str",),), "bool")
      for name in ("isdigit", "isalpha", "isalnum", "isspace", "islower", "isupper")],
    # ------------------------------------------------------------------ collection methods
    Operation("list.index", "method", (("list[int]", "int"), ("list[float]", "float")), "int",
              (R("ValueError", "the value is not in the list"),), divergence=NAN_EQ),
    Operation("list.count", "method", (("list[int]", "int"), ("list[float]", "float")), "int", divergence=NAN_EQ),
    Operation("tuple.index", "method", (("tuple[int, ...]", "int"),), "int",
              (R("ValueError", "the value is not in the tuple"),), refused="the checker refuses tuple methods"),
    Operation("tuple.count", "method", (("tuple[int, ...]", "int"),), "int",
              refused="the checker refuses tuple methods"),
    Operation("list.append", "method", (("list[int]", "int"), ("list[str]", "str")), "None",
              template="r = list({0})\nr.append({1})"),
    Operation("list.extend", "method", (("list[int]", "list[int]"),), "None", template="r = list({0})\nr.extend({1})"),
    Operation("set.add", "method", (("set[int]", "int"), ("set[str]", "str")), "None",
              (R("TypeError", "an unhashable element"),), template="r = set({0})\nr.add({1})"),
    Operation("dict.get", "method", (("dict[str, int]", "str"), ("dict[str, int]", "str", "int")),
              "the value, or the default"),
    *[Operation(f"dict.{name}", "method", (("dict[str, int]",),), f"list (a snapshot of the {name})")
      for name in ("keys", "values", "items")],
    # ------------------------------------------------------------------ statement-level operations
    Operation("subscript", "statement", (("list[int]", "int"), ("str", "int"), ("tuple[int, ...]", "int"),
                                         ("dict[str, int]", "str")), "the element",
              (R("IndexError", "an index outside the sequence"), R("KeyError", "a key the dict lacks")),
              template="r = {0}[{1}]"),
    Operation("slice", "statement", (("list[int]", "int", "int"), ("str", "int", "int"),
                                     ("tuple[int, ...]", "int", "int")), "the same kind",
              template="r = {0}[{1}:{2}]"),
    Operation("setitem", "statement", (("list[int]", "int", "int"),), "None",
              (R("IndexError", "an index outside the list"),), template="r = list({0})\nr[{1}] = {2}"),
    Operation("dict setitem", "statement", (("dict[str, int]", "str", "int"),), "None",
              (R("TypeError", "an unhashable key"),), template="r = dict({0})\nr[{1}] = {2}"),
    Operation("augassign", "statement", (("int", "int"), ("float", "float"), ("str", "str"),
                                         ("list[int]", "list[int]")), "as the binary operator",
              (TO_FLOAT,), template="r = {0}\nr += {1}"),
    Operation("unpack", "statement", (("tuple[int, int]",), ("list[int]",), ("tuple[int, ...]",)), "the parts",
              (R("ValueError", "not exactly as many values as names"),), template="p, q = {0}\nr = p"),
    Operation("format", "statement", (("float",), ("int",)), "str",
              (R("ValueError", "an int of more than 1,000 bits with a format spec"),),
              template='r = f"{{{0}:.2f}}"'),
    Operation("fstring", "statement", tuple((k,) for k in ANY), "str", template='r = f"<{{{0}}}>"'),
    Operation("for", "statement", tuple((k,) for k in ITERABLES), "the items, in order",
              template="r = []\nfor x in {0}:\n    r.append(x)", divergence=SNAPSHOT),
    Operation("listcomp", "statement", tuple((k,) for k in ITERABLES), "a list",
              template="r = [x for x in {0}]", divergence=SNAPSHOT),
]

OPERATIONS: dict[str, Operation] = {op.key: op for op in OPERATIONS_LIST}
assert len(OPERATIONS) == len(OPERATIONS_LIST), "an operation is listed twice"
