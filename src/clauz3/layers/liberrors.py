"""The one error type of library operations, carrying a stable error code (05 §6.6).

The code is what each edge maps: the browser's Libraries routes turn it into an HTTP status
(:mod:`clauz3.sessions.web.workspace_routes`), the commands print the message and exit with
``exit_code``. Nothing in ``layers/`` knows HTTP.
"""

from __future__ import annotations

# Every code a library operation raises (05 §6.6).
CODES: tuple[str, ...] = ("invalid_request", "unknown_source", "busy", "in_use", "review_expired",
                          "changed_since_review", "refused", "invalid_library", "source_unavailable")


class LibraryError(Exception):
    """An expected failure of a library operation; ``str(exc)`` is one sentence without the ``error:`` prefix.

    ``code`` is one of :data:`CODES`; ``exit_code`` the CLI status (2 by default, 5 for busy, 4 when
    ``git`` is missing).
    """

    def __init__(self, message: str, code: str = "refused", *, exit_code: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.exit_code = exit_code if exit_code is not None else (5 if code == "busy" else 2)

    def to_json(self) -> dict[str, dict[str, str]]:
        return {"error": {"code": self.code, "message": str(self)}}
