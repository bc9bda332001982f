"""The one error base of the runs layer: every failure here carries a stable ``code``.

A run's outcome reason (03 §12.1) is the code where one exists (``sandbox_failed``, a worker's
``Stop`` reason); the bridge turns codes into tool results and ``clauz3 run`` into exit codes.
"""

from __future__ import annotations

from clauz3.base.errors import Clauz3Error


class RunError(Clauz3Error):
    """A run, its worker, its sandbox or its approval client failed; ``str(exc)`` is one sentence."""

    code: str = "run_error"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
