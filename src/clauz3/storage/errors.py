"""The one error base of the storage layer: every failure here carries a stable ``code``.

Callers above map codes to their own shapes (an ``error:`` line and exit code in ``commands/``, an
HTTP status at a web edge); nothing in ``storage/`` knows either.
"""

from __future__ import annotations

from clauz3.base.errors import Clauz3Error


class StorageError(Clauz3Error):
    """A store, secret file, path or journal cannot be used; ``str(exc)`` is one sentence."""

    code: str = "storage_error"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
