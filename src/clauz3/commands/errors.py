"""The command line's expected-error type (05 CLI-4): one ``error:`` line and the exit status.

It is the CLI edge's own error, raised only by ``commands/`` and ``cli.py`` (``commands/_errors``
re-exports it). The layers below raise errors with a string code instead (``LibraryError``,
``LaunchError``…), which ``commands/_errors`` maps to exit statuses (issue 15).
"""

from __future__ import annotations

from clauz3.base.errors import Clauz3Error


class CommandError(Clauz3Error):
    """An expected error: printed as one ``error:`` line, exit ``code``."""

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.code = code
