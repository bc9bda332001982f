"""The one expected-error type both the commands and the host's launch paths raise (05 CLI-4).

It lives below both so `sessions/` need not import `commands/` upward (issue 15); `commands/_errors`
re-exports it and maps it to the printed ``error:`` line and exit code.
"""

from __future__ import annotations


class CommandError(Exception):
    """An expected error: printed as one ``error:`` line, exit ``code``."""

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.code = code
