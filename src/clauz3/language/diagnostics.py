"""Collecting refusals and warnings (01 §4.4 DIAG-1/DIAG-2, LIM-2)."""

from __future__ import annotations

from collections.abc import Iterable

from clauz3.language.errors import LanguageError
from clauz3.language.ir import Diagnostic

MAX_SHOWN = 20  # LIM-2

LAYER_SUFFIX = "problem in a trusted library, not in the program"


class Refused(LanguageError):
    """Checking stopped before any solver call; ``diagnostics`` holds every error found (and warnings)."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        self.diagnostics = list(diagnostics)
        super().__init__(self.render())

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]

    @property
    def codes(self) -> list[str]:
        return [d.code for d in self.errors]

    @property
    def target_missing_only(self) -> bool:
        """Every error is ``target-missing``: a negative verdict ("no target"), which the CLI exits 1 for
        instead of a refusal's 2 (DIAG-2); the status itself is chosen at the edge."""
        errors = self.errors
        return bool(errors) and all(d.code == "target-missing" for d in errors)

    def lines(self) -> list[str]:
        return render_lines(self.errors)

    def render(self) -> str:
        return "\n".join(self.lines())


def render_lines(diagnostics: Iterable[Diagnostic], limit: int = MAX_SHOWN) -> list[str]:
    """DIAG-1 lines, at most ``limit`` then one ``… N more problems`` line (LIM-2)."""
    items = list(diagnostics)
    lines = [d.render() for d in items[:limit]]
    if len(items) > limit:
        lines.append(f"… {len(items) - limit} more problems")
    return lines


# QB-24: every refusal carries a hint. Specific ones are given where the refusal is raised; these
# fill the rest, first by a phrase of the message, then by the code.
_PHRASE_HINTS: tuple[tuple[str, str], ...] = (
    ("`with`", "programs open no resources; call a trusted function that does the work"),
    ("`del`", "rebind the name instead of deleting it"),
    ("`global`", "pass values as arguments and return results"),
    ("`nonlocal`", "pass values as arguments and return results"),
    ("nested `class`", "declare Row classes at module level"),
    ("`async", "write a synchronous `def`"),
    ("`yield", "return a list instead"),
    ("`await`", "call trusted functions directly; they are synchronous"),
    ("slice assignment", "build a new list instead"),
    ("attribute assignment", "programs cannot change attributes; build a new value"),
    ("bare annotation", "give the name a value, e.g. `x: int = 0`"),
    ("`:=`", "assign on a line of its own first"),
    ("starred", "list the items one by one"),
    ("bytes literal", "use a str literal"),
    ("`@` operator", "use + - * / // % ** or the bitwise operators on ints"),
    ("format spec", "convert with str() and concatenate"),
    ("`!r`", "convert with str() and concatenate"),
    ("`%`-formatting", "use an f-string without a format spec"),
    ("dunder", "programs never see dunder attributes"),
    ("`__", "programs never see dunder attributes"),
    ("`for … else`", "track the condition in a variable instead"),
    ("return` inside", "assign the result and return after the loop"),
    # type-error messages: a hint that fits each (the code's fallback fits only merges)
    ("is not iterable", "iterate a list, tuple, set, dict, str, range(...) or a trusted result"),
    ("cannot be indexed", "index a list, tuple, str or dict"),
    ("cannot be sliced", "slice a list, tuple or str"),
    ("missing argument", "pass every parameter that has no default (`clauz3 tools` lists them)"),
    ("unexpected keyword argument", "`clauz3 tools` lists the parameters of trusted functions"),
    ("given twice", "pass each argument once"),
    ("is positional-only", "pass it by position"),
    ("too many positional arguments", "`clauz3 tools` lists the parameters of trusted functions"),
    ("unsupported operand types", "convert one side first, e.g. str(n) or int(text)"),
    ("bad operand type", "convert the value first, e.g. int(text)"),
    ("cannot unpack", "unpack into as many names as there are values"),
    ("unhashable", "use str, int, bool, float or tuples of them as set elements and dict keys"),
    ("has no field", "`clauz3 tools` lists the fields of each row"),
    ("cannot store", "store a value of the variable's type, or use a new variable"),
    ("cannot insert", "insert values of the collection's element type, or annotate it, e.g. `xs: list[str] = []`"),
    ("does not support item assignment", "assign items of local lists and dicts only"),
    ("index must be int", "index with an int, e.g. int(text)"),
    ("dict key must be", "look the key up with a value of the dict's key type"),
    ("arguments, got", "pass as many arguments as it takes"),
    ("is not supported here", "see the builtins of the checked subset in the docs"),
    ("`len` of", "len() takes a str, list, tuple, set or dict"),
    ("`abs` of", "abs() takes a number"),
    ("`round` of", "round() takes a number"),
    ("`int` of", "int() takes a number or a str"),
    ("`float` of", "float() takes a number or a str"),
    ("`ord` of", "ord() takes a one-character str"),
    ("`chr` of", "chr() takes an int"),
    ("`sum` of", "sum() takes a list, tuple or set of numbers"),
    ("`min` of", "min() takes numbers or a collection of numbers"),
    ("`max` of", "max() takes numbers or a collection of numbers"),
)
_CODE_HINTS: dict[str, str] = {
    "unsupported-statement": "programs use assignments, if, for, assert, raise, return and calls only",
    "unsupported-expression": "see the checked subset: constants, names, displays, operators and listed calls",
    "unsupported-call": "call trusted effects, your own functions or the listed builtins; `clauz3 tools` lists effects",
    "unsupported-type": "the trusted function's annotation is outside the supported types",
    "module-level-code": "module level holds only imports, defs, Row classes and literal constants",
    "import-not-allowed": "import clauz3, typing, math or a selected trusted library (tools.<domain>.trusted)",
    "import-shadowed": "rename or remove the file that shadows the standard-library module",
    "decorator-not-allowed": "the only decorator a program may use is @clauz3.guarantee(...)",
    "guarantee-grammar": "write @clauz3.guarantee(library.helper(literal arguments))",
    "unknown-contract": "`clauz3 tools` lists the contract helpers of the selected libraries",
    "contract-error": "check the helper's parameters with `clauz3 tools`",
    "type-error": "give the value one type on every path",
    "unbound-name": "assign the name on every path before using it",
    "mutation-not-owned": "copy into a new local list (list(x)) and change that",
    "loop-restriction": "count with a guarantee, or iterate a literal",
    "recursion": "write the repetition as a for loop over a literal or a range",
    "implicit-none": "return a value on every path, or on none",
    "limit-exceeded": "split the work into a smaller program",
    "target-ambiguous": "define the target function exactly once",
    "target-parameters": "give every parameter of the target a literal default",
    "bad-source": "save the program as UTF-8 text without NUL characters",
    "syntax-error": "fix the Python syntax at this position",
}


def default_hint(code: str, message: str) -> str | None:
    for phrase, hint in _PHRASE_HINTS:
        if phrase in message:
            return hint
    return _CODE_HINTS.get(code)


class Diagnostics:
    """An ordered sink; duplicates (same position, code and message) are dropped."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.items: list[Diagnostic] = []
        self._seen: set[tuple[str, int, int, str, str]] = set()

    def error(self, line: int, col: int, code: str, message: str, hint: str | None = None,
              file: str | None = None) -> None:
        self.add(Diagnostic("error", file or self.file, line, col, code, message, hint or default_hint(code, message)))

    def warning(self, line: int, col: int, code: str, message: str, hint: str | None = None) -> None:
        self.add(Diagnostic("warning", self.file, line, col, code, message, hint))

    def add(self, diag: Diagnostic) -> None:
        key = (diag.file, diag.line, diag.col, diag.code, diag.message)
        if key in self._seen:
            return
        self._seen.add(key)
        self.items.append(diag)

    def extend(self, other: Diagnostics) -> None:
        for d in other.items:
            self.add(d)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.items if d.severity == "error"]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.items if d.severity == "warning"]

    def has_errors(self) -> bool:
        return any(d.severity == "error" for d in self.items)

    def sorted_errors(self) -> list[Diagnostic]:
        # Stable order: by position in the entry file first, then others; Python's sort is stable.
        return sorted(self.errors, key=lambda d: (d.file != self.file, d.file, d.line, d.col))

    def raise_if_errors(self) -> None:
        if self.has_errors():
            raise Refused(self.sorted_errors() + self.warnings)


class CheckerBug(LanguageError):
    """An internal invariant broke; reported as a refusal rather than a traceback."""
