"""Approver sessions: the cookie of 02 AUTH-2/AUTH-4 with 02 ADD-1/ADD-2 and 00 DEC-1 scoping.

Value ``v1.<random id>.<issued epoch s>.<generation>.<mac>``; the MAC (HMAC-SHA256, secret
``<data>/ui-session.key``) covers the preceding fields and the canonical project, so a cookie of
another project or data dir never verifies. Logout bumps the project's session generation.

Issue 19: a browser sends a 127.0.0.1 cookie to every port of 127.0.0.1, so the cookie alone is no
approver credential. Each sign-in also hands the page a *page secret* ``p1.<random id>.<generation>.<mac>``
(MAC under the same key, in its own domain) in the body of the sign-in response; the page keeps it in
``sessionStorage`` and sends it as the ``X-Clauz3-Page`` header and in the WebSocket's first frame. A
cookie-authenticated API call needs both. The secret names no cookie, so a second tab's sign-in (a new
cookie) leaves the first tab working; logout (a new generation) ends both.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import sys
import time
from pathlib import Path

from clauz3.approvals.keys import b64u_decode, b64u_encode
from clauz3.approvals.tokens import MAX_CREDENTIAL_BYTES
from clauz3.storage.atomic import write_atomic
from clauz3.storage.paths import canonical_project, workspace_state_dir
from clauz3.storage.secretfiles import ensure_private_dir, read_secret, write_secret

IDLE_SECONDS = 12 * 3600
PAGE_HEADER = "x-clauz3-page"
PAGE_STORAGE_KEY = "clauz3-page"
_PAGE_DOMAIN = "clauz3-page-secret"
REISSUE_AFTER_SECONDS = 600
FUTURE_SKEW_SECONDS = 60


def load_session_secret(data: Path) -> bytes:
    """Create (O_EXCL, 0600) or read the 32-byte secret; a wrong length is replaced with a warning."""
    path = data / "ui-session.key"
    ensure_private_dir(data)
    try:
        write_secret(path, secrets.token_bytes(32))
    except FileExistsError:
        pass
    secret = read_secret(path)
    if len(secret) != 32:
        print(f"warning: {path} had the wrong length; replaced it (earlier sign-ins end)", file=sys.stderr)
        secret = secrets.token_bytes(32)
        write_secret(path, secret, force=True)
    return secret


class SessionCookies:
    def __init__(self, data: Path, project: str, *, secret: bytes | None = None) -> None:
        self.project = canonical_project(project)
        self.data = data
        canonical_data = os.path.realpath(data)
        scope = hashlib.sha256(f"{canonical_data}\0{self.project}".encode()).hexdigest()[:12]
        self.name = f"clauz3_s_{scope}"
        self._secret = secret if secret is not None else load_session_secret(data)
        self._generation_path = workspace_state_dir(data, self.project) / "session-generation"
        self.generation = self._read_generation()

    def _read_generation(self) -> int:
        try:
            text = read_secret(self._generation_path).decode("ascii").strip()
            return int(text) if text.isdigit() else 0
        except FileNotFoundError:
            return 0
        except (UnicodeDecodeError, ValueError):
            return 0

    def bump_generation(self) -> None:
        """Logout: every cookie issued so far stops working, also after a restart (ADD-2)."""
        self.generation += 1
        ensure_private_dir(self._generation_path.parent)
        write_atomic(self._generation_path, f"{self.generation}\n".encode("ascii"))

    def _mac(self, fields: str) -> str:
        digest = hmac.new(self._secret, f"{fields}\0{self.project}".encode(), hashlib.sha256).digest()
        return b64u_encode(digest)

    def issue(self, now: float | None = None) -> str:
        issued = int(time.time() if now is None else now)
        fields = f"v1.{secrets.token_hex(16)}.{issued}.{self.generation}"
        return f"{fields}.{self._mac(fields)}"

    def verify(self, value: str | None, now: float | None = None) -> int | None:
        """The issue time of a valid cookie, else None (forged, expired, revoked, other project)."""
        if not value or len(value) > MAX_CREDENTIAL_BYTES or not value.isascii():
            return None
        parts = value.split(".")
        if len(parts) != 5 or parts[0] != "v1" or not parts[2].isdigit() or not parts[3].isdigit():
            return None
        try:
            b64u_decode(parts[4])
        except ValueError:
            return None
        if not hmac.compare_digest(self._mac(".".join(parts[:4])).encode(), parts[4].encode()):
            return None
        issued = int(parts[2])
        current = time.time() if now is None else now
        if int(parts[3]) != self.generation or issued > current + FUTURE_SKEW_SECONDS:
            return None
        if current - issued > IDLE_SECONDS:
            return None
        return issued

    def issue_page(self) -> str:
        """A fresh page secret for the page that is signing in (see the module docstring)."""
        fields = f"p1.{secrets.token_hex(16)}.{self.generation}"
        return f"{fields}.{self._mac(_PAGE_DOMAIN + chr(0) + fields)}"

    def verify_page(self, value: str | None) -> bool:
        """True for a page secret this service issued under the current generation."""
        if not value or len(value) > MAX_CREDENTIAL_BYTES or not value.isascii():
            return False
        parts = value.split(".")
        if len(parts) != 4 or parts[0] != "p1" or not parts[2].isdigit():
            return False
        expected = self._mac(_PAGE_DOMAIN + chr(0) + ".".join(parts[:3]))
        return hmac.compare_digest(expected.encode(), parts[3].encode()) and int(parts[2]) == self.generation

    def set_header(self, value: str) -> str:
        return f"{self.name}={value}; HttpOnly; SameSite=Strict; Path=/; Max-Age={IDLE_SECONDS}"

    def clear_header(self) -> str:
        return f"{self.name}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0"


class LoginLimiter:
    """More than 10 failed sign-ins within a minute → 429 (API-2, AUTH-3).

    It answers failures only (issue 19): a valid key is checked first and always redeems, so wrong keys
    from any local process never lock the person's fresh link out. The keys are 256-bit and one-time
    (host) or private (standalone), so the limiter is about noise, not about guessing.
    """

    def __init__(self, limit: int = 10, window: float = 60.0) -> None:
        self.limit = limit
        self.window = window
        self._failures: list[float] = []

    def _trim(self, now: float) -> None:
        self._failures = [t for t in self._failures if now - t < self.window]

    def blocked(self, now: float | None = None) -> bool:
        current = time.monotonic() if now is None else now
        self._trim(current)
        return len(self._failures) >= self.limit

    def fail(self, now: float | None = None) -> None:
        self._failures.append(time.monotonic() if now is None else now)
