"""The answer to a redeemed sign-in link, in both modes (issue 19; narrows 02 AUTH-3 and 03 API-2).

It used to be a 303 to ``/ui``; a redirect cannot hand the page anything but a cookie or an address,
and the page secret (:mod:`clauz3.approvals.cookies`) must be in neither. So the page that redeemed its
link gets this small page: the secret in a ``<meta>``, and one inline script (allowed by its hash only)
that moves it into ``sessionStorage`` and replaces the address with ``/ui``, so neither the key nor the
secret stays in the address bar or the tab's history. ``no-store`` keeps it out of every cache. The
HTTP edge (:func:`clauz3.approvals.app.signed_in_response`) sends it with the session cookie.
"""

from __future__ import annotations

import base64
import hashlib
import re
from html import escape

from clauz3.approvals.cookies import PAGE_STORAGE_KEY

_SECRET_RE = re.compile(r"^[A-Za-z0-9._-]+$")
SCRIPT = (
    "(()=>{const m=document.querySelector('meta[name=\"clauz3-page\"]');"
    f"try{{sessionStorage.setItem('{PAGE_STORAGE_KEY}',m.content);}}catch(e){{"
    "document.getElementById('said').textContent='This browser does not let the page keep its sign-in "
    "(session storage is off); allow it for 127.0.0.1 and open a new link.';return;}"
    "m.remove();location.replace('/ui');})();"
)
STYLE = ":root{color-scheme:light dark;font-family:system-ui,sans-serif}body{margin:2rem}"


def _hash(text: str) -> str:
    return base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()


CSP = (f"default-src 'none'; script-src 'sha256-{_hash(SCRIPT)}'; style-src 'sha256-{_hash(STYLE)}'; "
       "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
HEADERS = {
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": CSP,
}


def landing_page(page_secret: str) -> str:
    if not _SECRET_RE.match(page_secret):
        raise ValueError("a page secret is base64url and dots only")
    return (
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<meta name=\"clauz3-page\" content=\"{escape(page_secret)}\"><title>Signing in…</title>"
        f"<style>{STYLE}</style></head><body><p id=\"said\">Signing in…</p>"
        f"<script>{SCRIPT}</script></body></html>"
    )
