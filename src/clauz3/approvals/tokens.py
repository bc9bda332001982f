"""Bearer tokens (03 §2): generation, format check and constant-time comparison (CRED-7)."""

from __future__ import annotations

import hmac
import re
import secrets

TOKEN_RE = re.compile(r"^[A-Za-z0-9_-]{32,}$")
MAX_CREDENTIAL_BYTES = 512


def generate_token() -> str:
    """32 random bytes, base64url without padding: 43 characters. (Not through ``keys``: that loads
    cryptography, ~15 MiB in the ``clauz3 ui`` launcher, which only needs a login token.)"""
    return secrets.token_urlsafe(32)


def token_format_ok(token: str) -> bool:
    return bool(TOKEN_RE.match(token)) and len(token) <= MAX_CREDENTIAL_BYTES


def secrets_equal(presented: str | bytes | None, expected: str | bytes | None) -> bool:
    """Constant-time equality over UTF-8 bytes; oversize or non-ASCII presented values never match."""
    if presented is None or expected is None:
        return False
    a = presented.encode("utf-8", "surrogateescape") if isinstance(presented, str) else presented
    b = expected.encode("utf-8") if isinstance(expected, str) else expected
    if len(a) > MAX_CREDENTIAL_BYTES or not a.isascii() or not a:
        return False
    return hmac.compare_digest(a, b)
