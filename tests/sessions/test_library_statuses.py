"""Library error codes become HTTP statuses only at the web edge (05 §6.6, issue 15)."""

from __future__ import annotations

from clauz3.layers.liberrors import CODES, LibraryError
from clauz3.sessions.web.workspace_routes import LIBRARY_STATUS, library_status


def test_every_library_error_code_has_the_status_05_names() -> None:
    assert set(LIBRARY_STATUS) == set(CODES)
    assert {code: library_status(code) for code in CODES} == {
        "invalid_request": 400, "unknown_source": 404, "busy": 409, "in_use": 409, "review_expired": 409,
        "changed_since_review": 409, "refused": 409, "invalid_library": 422, "source_unavailable": 502}
    assert not hasattr(LibraryError("x"), "http_status")  # layers/ knows codes, never HTTP
