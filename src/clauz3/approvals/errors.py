"""The authority's one error base: a 03 API-1 code plus a message.

Every failure the approvals package raises is an :class:`ApprovalError` (or a subclass) with a
stable ``code``; the HTTP edge (:mod:`clauz3.approvals.app`) maps codes to statuses and the
commands map them to exit codes. Nothing here knows either.
"""

from __future__ import annotations

from typing import Any

from clauz3.base.errors import Clauz3Error


class ApprovalError(Clauz3Error):
    def __init__(self, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra = extra

    def body(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "message": self.message, **self.extra}}
