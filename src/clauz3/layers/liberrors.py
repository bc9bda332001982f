"""The one error type of library operations, carrying both the CLI exit code and the browser error code (05 §6.6)."""

from __future__ import annotations

# Browser error code → HTTP status (05 §6.6).
HTTP_STATUS: dict[str, int] = {
    "invalid_request": 400,
    "unknown_source": 404,
    "busy": 409,
    "in_use": 409,
    "review_expired": 409,
    "changed_since_review": 409,
    "refused": 409,
    "invalid_library": 422,
    "source_unavailable": 502,
}


class LibraryError(Exception):
    """An expected failure of a library operation; ``str(exc)`` is one sentence without the ``error:`` prefix.

    ``code`` is the browser error code; ``exit_code`` the CLI status (2 by default, 5 for busy, 4 when
    ``git`` is missing).
    """

    def __init__(self, message: str, code: str = "refused", *, exit_code: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.exit_code = exit_code if exit_code is not None else (5 if code == "busy" else 2)

    @property
    def http_status(self) -> int:
        return HTTP_STATUS.get(self.code, 409)

    def to_json(self) -> dict[str, dict[str, str]]:
        return {"error": {"code": self.code, "message": str(self)}}
