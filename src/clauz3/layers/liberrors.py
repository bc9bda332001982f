"""The one error type of library operations, carrying a stable error code (05 §6.6).

The code is what each edge maps: the browser's Libraries routes turn it into an HTTP status
(:mod:`clauz3.sessions.web.workspace_routes`), the commands into an exit status
(:func:`clauz3.commands._errors.library_exit`). Nothing in ``layers/`` knows HTTP or exit statuses.
"""

from __future__ import annotations

from clauz3.layers.errors import LayersError

# Every code a library operation raises (05 §6.6).
CODES: tuple[str, ...] = ("invalid_request", "unknown_source", "busy", "in_use", "review_expired",
                          "changed_since_review", "refused", "invalid_library", "source_unavailable")


class LibraryError(LayersError):
    """An expected failure of a library operation; ``str(exc)`` is one sentence without the ``error:`` prefix.

    ``code`` is one of :data:`CODES`. ``missing`` names the required external program (``git``) that is
    missing or unusable, when that is the cause: a fact about the failure, not a status — the
    page still sees ``source_unavailable`` while the CLI edge exits 4 for it (05 §2.1).
    """

    def __init__(self, message: str, code: str = "refused", *, missing: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.missing = missing

    def to_json(self) -> dict[str, dict[str, str]]:
        return {"error": {"code": self.code, "message": str(self)}}
