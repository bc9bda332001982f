"""The authority's one error type: a 03 API-1 code plus a message; the HTTP edge maps code → status."""

from __future__ import annotations

from typing import Any

STATUS_BY_CODE: dict[str, int] = {
    "invalid_request": 400, "unknown_decision": 400, "program_sha256_mismatch": 400, "unproved_request": 400,
    "required_coverage_missing": 400, "not_rememberable": 400, "invalid_host": 400,
    "unauthenticated": 401,
    "origin_not_allowed": 403, "origin_required": 403, "layer_not_authorized": 403,
    "not_found": 404, "method_not_allowed": 405,
    "already_decided": 409, "not_pending": 409, "request_id_conflict": 409, "workspace_changed": 409,
    "too_large": 413, "unsupported_media_type": 415,
    "too_many_pending": 429, "too_many_attempts": 429,
    "internal": 500,
    "service_stopping": 503,
}


class ApprovalError(Exception):
    def __init__(self, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra = extra

    @property
    def status(self) -> int:
        return STATUS_BY_CODE.get(self.code, 400)

    def body(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "message": self.message, **self.extra}}
