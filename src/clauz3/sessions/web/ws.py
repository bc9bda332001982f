"""The page's WebSocket ``/api/chat/acp`` (02 §4.1, §4.2, AUTH-9).

Auth failures are accepted then closed 1008 with a reason and no other frame; the cookie and Origin are
checked at the handshake, the page secret in the first frame (``clauz3/hello``, issue 19). One subscriber per
service (WS-1): a second tab is closed 1013 unless it asks ``?takeover=1``. Frames are checked
for size and type before parsing (WS-6) and for shape before dispatch (WS-7); commands run one
at a time in arrival order (WS-8). Disconnecting only detaches (WS-4).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from clauz3.approvals.transport import cookie_value
from clauz3.sessions.conversation.host import Host
from clauz3.sessions.conversation.notices import notice
from clauz3.sessions.conversation.publisher import Close, Subscriber, encode
from clauz3.sessions.web.page_frames import page_frame

log = logging.getLogger("clauz3.sessions.web.ws")

MAX_FRAME = 100_000
MAX_METHOD = 64
HELLO = "clauz3/hello"
HELLO_SECONDS = 20.0


def _authorized(websocket: WebSocket) -> str | None:
    """None when allowed, else the 1008 reason (AUTH-7..9)."""
    app_state = websocket.app.state
    port = app_state.port
    site = websocket.headers.get("sec-fetch-site")
    origin = websocket.headers.get("origin")
    if (site is not None and site.lower() != "same-origin") or origin != f"http://127.0.0.1:{port}":
        return "Origin not allowed"
    sign_in = app_state.sign_in
    if sign_in.cookie_ok(cookie_value(websocket, sign_in.cookies.name)) is None:
        return "Not signed in"
    return None


def parse_frame(text: str) -> tuple[str, dict[str, Any]] | None:
    """WS-7: a JSON object with a string ``method`` (≤ 64 chars) and an object ``params``."""
    try:
        obj = json.loads(text)
    except ValueError:
        return None
    if not isinstance(obj, dict):
        return None
    method = obj.get("method")
    params = obj.get("params", {})
    if not isinstance(method, str) or len(method) > MAX_METHOD or not isinstance(params, dict):
        return None
    return method, params


async def _page_signed_in(websocket: WebSocket) -> bool:
    """Issue 19: the first frame must be ``clauz3/hello`` carrying the page secret (never the URL: it
    would sit in logs and history). Until it arrives nothing is sent and no tab is displaced."""
    try:
        message = await asyncio.wait_for(websocket.receive(), HELLO_SECONDS)
    except TimeoutError:
        return False
    text = message.get("text") if message["type"] == "websocket.receive" else None
    if not isinstance(text, str) or len(text) > MAX_FRAME:
        return False
    parsed = parse_frame(text)
    if parsed is None or parsed[0] != HELLO:
        return False
    secret = parsed[1].get("page")
    ok: bool = websocket.app.state.sign_in.page_ok(secret if isinstance(secret, str) else None)
    return ok


async def acp_socket(websocket: WebSocket) -> None:
    await websocket.accept()
    reason = _authorized(websocket)
    if reason is not None:
        await websocket.close(1008, reason)
        return
    if not await _page_signed_in(websocket):
        with contextlib.suppress(RuntimeError, OSError):
            await websocket.close(1008, "Not signed in")
        return
    host = websocket.app.state.host
    publisher = host.publisher
    holder: Subscriber | None = publisher.subscriber
    if holder is not None and not holder.closed:
        if websocket.query_params.get("takeover") != "1":
            await websocket.close(1013, "Workspace open in another tab")
            return
        holder.put(Close(1013, "Workspace moved to another tab"))
        publisher.detach(holder)
    if host.conversation is not None:
        host.conversation.ensure_agent()  # before attaching, so the restore frame already says "starting"
    subscriber = Subscriber()
    publisher.attach(subscriber)
    for frame in host.startup_notices():
        subscriber.put(frame)
    sender = asyncio.create_task(_send_loop(websocket, subscriber), name="ws.send")
    if host.conversation is not None:
        host.conversation.ensure_agent()  # no-op once started; repeats a read-only notice to this socket
    try:
        await _receive_loop(websocket, host, subscriber, sender)
    finally:
        publisher.detach(subscriber)
        if subscriber.closed and not sender.done():  # a Close is queued: let it go out
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(asyncio.shield(sender), 2.0)
        subscriber.closed = True
        sender.cancel()
        with contextlib.suppress(BaseException):
            await sender


async def _send_loop(websocket: WebSocket, subscriber: Subscriber) -> None:
    try:
        while True:
            frame = await subscriber.next()
            if isinstance(frame, Close):
                await websocket.close(frame.code, frame.reason)
                return
            await websocket.send_text(encode(page_frame(frame)))
    except (WebSocketDisconnect, RuntimeError, OSError):
        return


async def _receive_loop(websocket: WebSocket, host: Host, subscriber: Subscriber, sender: asyncio.Task[None]) -> None:
    while not sender.done():
        receive = asyncio.ensure_future(websocket.receive())
        done, _ = await asyncio.wait({receive, sender}, return_when=asyncio.FIRST_COMPLETED)
        if receive not in done:
            receive.cancel()
            return
        message = receive.result()
        if message["type"] == "websocket.disconnect":
            return
        if message.get("bytes") is not None:
            subscriber.put(Close(1003, "Text frames only"))
            return
        text = message.get("text") or ""
        if len(text) > MAX_FRAME or len(text.encode("utf-8", "surrogatepass")) > MAX_FRAME:
            subscriber.put(Close(1009, "Message too large (limit 100 KB)"))
            return
        parsed = parse_frame(text)
        if parsed is None:
            subscriber.put(notice("bad_frame"))
            continue
        method, params = parsed
        try:
            await host.command(method, params)
        except Exception:
            log.exception("command %s failed", method)
            subscriber.put(notice("internal", "Something went wrong; nothing was changed."))
