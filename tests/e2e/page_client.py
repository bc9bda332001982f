"""What a signed-in page sends besides its cookie (issue 19), for the tests that act as the page over HTTP.

The answer to a redeemed sign-in link is 200 with the session cookie and the page secret in a ``<meta>``;
the page sends the secret as ``X-Clauz3-Page`` on every API call and in the chat socket's first frame.
"""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
import websockets

PAGE_HEADER = "X-Clauz3-Page"
_SECRET = re.compile(r'<meta name="clauz3-page" content="([A-Za-z0-9._-]+)">')


def signed_in(response: httpx.Response) -> tuple[str, str, str]:
    """(cookie name, cookie value, page secret) from a redeemed sign-in link's answer."""
    assert response.status_code == 200, response.text
    match = _SECRET.search(response.text)
    assert match is not None, response.text
    name, value = next(iter(response.cookies.items()))
    return name, value, match.group(1)


def hello(secret: str) -> str:
    return json.dumps({"method": "clauz3/hello", "params": {"page": secret}})


async def page_socket(url: str, *, origin: str, cookie: str, secret: str, **kw: Any) -> Any:
    """The chat socket as the page opens it: the cookie at the handshake, the secret in the first frame."""
    ws = await websockets.connect(url, origin=origin, additional_headers={"Cookie": cookie}, **kw)  # type: ignore[arg-type]
    await ws.send(hello(secret))
    return ws
