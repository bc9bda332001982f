"""Sign-in for the browser workspace (02 AUTH-1..4, ADD-1, ADD-2, 00 DEC-1).

One-time login tokens live only in the service's memory; the session cookie is the authority's
:class:`~clauz3.approvals.cookies.SessionCookies`, scoped to the data dir and the *launch* project
so a workspace switch keeps it valid and another service never accepts it.
"""

from __future__ import annotations

import time
from pathlib import Path

from clauz3.approvals.cookies import LoginLimiter, SessionCookies
from clauz3.approvals.tokens import generate_token, secrets_equal

LOGIN_TTL_SECONDS = 15 * 60


class LoginTokens:
    """AUTH-1: one live token at a time, single use, 15 minutes; a new one kills the previous."""

    def __init__(self, ttl: float = LOGIN_TTL_SECONDS) -> None:
        self._ttl = ttl
        self._token: str | None = None
        self._expires = 0.0

    def adopt(self, token: str, now: float | None = None) -> None:
        """Take over the first token the launcher generated (it is in ``ui.json``)."""
        self._token = token
        self._expires = (time.monotonic() if now is None else now) + self._ttl

    def new(self, now: float | None = None) -> str:
        token = generate_token()
        self.adopt(token, now)
        return token

    def consume(self, presented: str, now: float | None = None) -> bool:
        current = time.monotonic() if now is None else now
        token = self._token
        if token is None or current > self._expires:
            return False
        if not secrets_equal(presented, token):
            return False
        self._token = None
        return True

    def secret_values(self) -> list[str]:
        return [self._token] if self._token else []


class SignIn:
    """Login tokens + cookies + the failure limiter, as one object the routes and WS share."""

    def __init__(self, data_dir: Path, launch_project: str, *, secret: bytes | None = None) -> None:
        self.cookies = SessionCookies(data_dir, launch_project, secret=secret)
        self.tokens = LoginTokens()
        self.limiter = LoginLimiter()

    def login_url(self, port: int, token: str) -> str:
        return f"http://127.0.0.1:{port}/ui/login?key={token}"

    def cookie_ok(self, value: str | None) -> int | None:
        return self.cookies.verify(value)

    def page_ok(self, value: str | None) -> bool:
        """Issue 19: the page secret the signed-in page sends with every API call and WebSocket."""
        return self.cookies.verify_page(value)
