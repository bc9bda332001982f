"""Collecting refusals and warnings (01 §4.4 DIAG-1/DIAG-2, LIM-2)."""

from __future__ import annotations

from collections.abc import Iterable

from clauz3.language.ir import Diagnostic

MAX_SHOWN = 20  # LIM-2

# Codes whose refusal exits 1 instead of 2 (DIAG-2).
EXIT_ONE_CODES = frozenset({"target-missing"})

LAYER_SUFFIX = "problem in a trusted library, not in the program"


class Refused(Exception):
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
    def exit_code(self) -> int:
        errors = self.errors
        if errors and all(d.code in EXIT_ONE_CODES for d in errors):
            return 1
        return 2

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


class Diagnostics:
    """An ordered sink; duplicates (same position, code and message) are dropped."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.items: list[Diagnostic] = []
        self._seen: set[tuple[str, int, int, str, str]] = set()

    def error(self, line: int, col: int, code: str, message: str, hint: str | None = None,
              file: str | None = None) -> None:
        self.add(Diagnostic("error", file or self.file, line, col, code, message, hint))

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


class CheckerBug(Exception):
    """An internal invariant broke; reported as a refusal rather than a traceback."""
