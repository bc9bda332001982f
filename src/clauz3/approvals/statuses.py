"""HTTP statuses of the authority's error codes (03 API-1): the HTTP edge's table, used only by
:mod:`clauz3.approvals.app`. The core raises codes; only this edge knows what HTTP makes of them."""

from __future__ import annotations

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


def http_status(code: str) -> int:
    """The status of a refusal with ``code``; any other refusal of a request is a 400."""
    return STATUS_BY_CODE.get(code, 400)
