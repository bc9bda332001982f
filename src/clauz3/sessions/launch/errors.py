"""The one error type of a launch (``ui``, ``start``, ``resume``) refused before the agent runs.

It carries a string ``code`` (02 LAUNCH-6 and the failures around it) and one sentence; the command
line maps the code to an exit status in :data:`clauz3.commands._errors.LAUNCH_EXIT` (05 §2.1), so
nothing in ``sessions/`` knows exit statuses.
"""

from __future__ import annotations

from clauz3.sessions.errors import SessionError

# Every code a launch raises.
LAUNCH_CODES: tuple[str, ...] = (
    "startup_failed", "project_in_use", "store_incompatible", "store_unreadable",  # the service's LAUNCH-6 codes
    "port_in_use", "cannot_listen", "service_not_started", "approval_service_not_started", "reopen_failed",
    "agent_not_started", "reload_failed", "program_missing",
)


class LaunchError(SessionError):
    """A refused launch: ``code`` is one of :data:`LAUNCH_CODES`; ``str(exc)`` the sentence after ``error:``."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
