"""The workspace's HTTP routes (02 §3.4). Transport and sign-in checks already ran (:mod:`.checks`).

Handlers reach the live :class:`~.host.Host` through ``request.app.state.host`` and return
HTTP-3 JSON errors; nothing here ever returns a traceback, secret or path outside the project.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route, WebSocketRoute

from clauz3.approvals.app import signed_in_response
from clauz3.sessions.conversation.attachments import MAX_BYTES, AttachmentError, public
from clauz3.sessions.conversation.export import as_json, as_markdown, filename
from clauz3.sessions.conversation.handoff import HandoffTooLarge, HandoffUnsafe, write_handoff
from clauz3.sessions.conversation.host import Host
from clauz3.sessions.store.store import Conversation, is_conversation_id
from clauz3.sessions.store.store_search import BadQuery
from clauz3.sessions.web.checks import SIGN_IN_TEXT, HttpError, read_json_body, sign_in_response
from clauz3.sessions.web.files import FilesError, browse, parse_query
from clauz3.sessions.web.ws import acp_socket

WEB = Path(__file__).resolve().parent / "static"
ASSET_RE = re.compile(r"^[a-z0-9][a-z0-9-]*\.(js|css|svg)$")
TYPES = {"js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8", "svg": "image/svg+xml"}


def build_assets() -> dict[str, tuple[bytes, str]]:
    """HTTP-5: the allow-list is fixed at startup from the files shipped in ``web/``."""
    out: dict[str, tuple[bytes, str]] = {}
    for entry in sorted(os.listdir(WEB)):
        match = ASSET_RE.match(entry)
        if match and (WEB / entry).is_file() and not (WEB / entry).is_symlink():
            out[entry] = ((WEB / entry).read_bytes(), TYPES[match.group(1)])
    return out


APP_SCRIPT = '<script type="module" src="/ui/assets/app.js"></script>'


def preload_modules(html: str, assets: dict[str, tuple[bytes, str]]) -> str:
    """Name every shipped module in the page's head, so the browser fetches them all at once instead
    of one import level per round trip (issue 13: four levels while the service starts)."""
    if html.count(APP_SCRIPT) != 1:
        raise ValueError("index.html must load app.js exactly once")
    links = "".join(f'<link rel="modulepreload" href="/ui/assets/{name}">\n'
                    for name in sorted(assets) if name.endswith(".js") and name != "app.js")
    return html.replace(APP_SCRIPT, links + APP_SCRIPT)


def _json(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse(data, status_code=status, headers=headers)


def _err(status: int, code: str, message: str) -> JSONResponse:
    return _json({"error": {"code": code, "message": message}}, status)


# Attachment refusal code → HTTP status (ATT-1): the status is chosen here, at the web edge.
ATTACHMENT_STATUS: dict[str, int] = {"stale_conversation": 409, "too_many_attachments": 409, "too_large": 413,
                                     "unsupported_media_type": 415}


def _host(request: Request) -> Host:
    host: Host = request.app.state.host
    return host


async def health(request: Request) -> Response:
    return _json({"ok": True})


async def login(request: Request) -> Response:
    """AUTH-3 as issue 19 narrows it: a fresh, unused key always redeems (the limiter counts and answers
    failures only), and the answer hands the page its secret (:mod:`clauz3.approvals.signin_landing`)."""
    sign_in = request.app.state.sign_in
    key = request.query_params.get("key", "")
    if key and sign_in.tokens.consume(key):
        return signed_in_response(sign_in.cookies)
    if sign_in.limiter.blocked():
        return _err(429, "too_many_attempts", "Too many sign-in attempts; wait a minute and try again.")
    sign_in.limiter.fail()
    return sign_in_response(SIGN_IN_TEXT)


async def root(request: Request) -> Response:
    return RedirectResponse("/ui", status_code=303)


async def page(request: Request) -> Response:
    return HTMLResponse(request.app.state.index_html)


async def asset(request: Request) -> Response:
    name = request.path_params["name"]
    found = request.app.state.assets.get(name) if ASSET_RE.match(name) else None
    if found is None:
        return _err(404, "not_found", "There is no such file.")
    content, media = found
    return Response(content, media_type=media)


async def workspaces(request: Request) -> Response:
    from clauz3.tutorials import TUTORIALS

    host = _host(request)
    current = {"path": host.project, "name": os.path.basename(host.project), "tutorial": host.tutorial}
    recent = [{"path": r.path, "name": r.name, "available": r.available, "current": r.path == host.project}
              for r in host.recent.recent()]
    tutorials = [{"id": t.id, "name": t.name, "description": t.description,
                  "starters": [{"label": s.label, "text": s.text} for s in t.starters]} for t in TUTORIALS.values()]
    return _json({"current": current, "recent": recent, "tutorials": tutorials,
                  "switching": True})


async def conversations(request: Request) -> Response:
    host = _host(request)
    query = request.query_params.get("q")
    raw_limit = request.query_params.get("limit", "200")
    if not raw_limit.isdigit() or not 1 <= int(raw_limit) <= 500:
        return _err(400, "invalid_request", "limit must be an integer from 1 to 500.")
    current = host.conversation.id if host.conversation else None
    if query is not None:
        try:
            rows = host.store.search(query)
        except BadQuery:
            return _err(400, "invalid_request", "Search with 1–200 characters.")
        truncated = False
    else:
        rows, truncated = host.store.listing(limit=int(raw_limit), current=current)
    items = []
    for r in rows:
        item: dict[str, Any] = {"id": r.id, "title": r.title, "updated": r.updated, "agent": r.agent, "turns": r.turns}
        if r.snippet is not None:
            item["snippet"] = r.snippet
        items.append(item)
    return _json({"conversations": items, "truncated": truncated})


async def delete_conversation(request: Request) -> Response:
    status, body = await _host(request).delete_conversation(request.path_params["conversation_id"])
    return _json(body, status)


def _lookup(host: Host, conversation_id: str | None) -> tuple[Conversation, dict[str, Any], list[dict[str, Any]]] | None:
    conv = host.conversation
    cid = conversation_id or (conv.id if conv else None)
    if cid is None or not is_conversation_id(cid):
        return None
    row = host.store.get(cid)
    if row is None:
        return None
    if conv is not None and conv.id == cid:
        return row, conv.persisted(), list(conv.history)
    return row, row.state, host.store.history(cid)


def _presentations(host: Host, conversation_id: str) -> dict[str, dict[str, Any]]:
    """Each run card's presentation (plan, guarantees) the workspace still holds, by request id."""
    out: dict[str, dict[str, Any]] = {}
    for record in host.authority.list(conversation_id=conversation_id, limit=500):
        if isinstance(record.presentation, dict):
            out[record.request.request_id] = record.presentation
    conv = host.conversation
    if conv is not None and conv.id == conversation_id:
        for rid, view in conv.approvals.items():
            if isinstance(view.get("presentation"), dict):
                out.setdefault(rid, view["presentation"])
    return out


async def transcript(request: Request) -> Response:
    host = _host(request)
    fmt = request.query_params.get("format", "json")
    if fmt not in ("json", "markdown"):
        return _err(400, "invalid_request", "format must be json or markdown.")
    found = _lookup(host, request.query_params.get("id"))
    if found is None:
        return _err(404, "not_found", "That conversation isn't in this workspace.")
    row, state, history = found
    model = host.config.model
    if fmt == "json":
        body = as_json(conversation_id=row.id, title=row.title, project=host.project, agent=row.agent, model=model,
                       state=state, history=history)
        name = filename(row.title, row.id, "json")
        return _json(body, headers={"Content-Disposition": f'attachment; filename="{name}"'})
    text = as_markdown(title=row.title, project=host.project, agent=row.agent, model=model, state=state,
                       history=history, presentations=_presentations(host, row.id))
    name = filename(row.title, row.id, "md")
    return Response(text, media_type="text/markdown; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


async def handoff(request: Request) -> Response:
    host = _host(request)
    body = await read_json_body(request)
    if not isinstance(body, dict) or not isinstance(body.get("conversation_id"), str):
        return _err(400, "invalid_request", "conversation_id must be a conversation id.")
    found = _lookup(host, body["conversation_id"])
    if found is None:
        return _err(404, "not_found", "No such conversation in this workspace")
    row, state, history = found
    if host.conversation is not None and host.conversation.id == row.id:
        host.conversation.save_state()
    try:
        result = write_handoff(host.data_dir, conversation_id=row.id, title=row.title, project=host.project,
                               agent=row.agent, model=host.config.model, state=state, history=history,
                               secrets_to_hide=host.secret_values())
    except HandoffTooLarge as exc:
        return _err(413, "too_large", str(exc))
    except HandoffUnsafe as exc:
        return _err(409, "unsafe_path", str(exc))
    return _json(result)


async def files(request: Request) -> Response:
    host = _host(request)
    try:
        parts, hidden = parse_query(request.query_params.get("path"), request.query_params.get("hidden"))
        return _json(browse(host.project, parts, hidden))
    except FilesError as exc:
        return _err(exc.status, exc.code, exc.message)


async def upload_attachment(request: Request) -> Response:
    host = _host(request)
    conv = host.conversation
    cid = request.query_params.get("conversation_id")
    if conv is None or cid != conv.id:
        return _err(409, "stale_conversation", "This view was out of date; reload the page.")
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > MAX_BYTES:
        return _err(413, "too_large", "Attachments can be at most 10 MB.")
    try:
        meta = await host.attachments.save(conv.id, request.headers.get("x-clauz3-filename"), request.stream())
    except AttachmentError as exc:
        return _err(ATTACHMENT_STATUS.get(exc.code, 400), exc.code, exc.message)
    return _json({**public(meta), "sha256": meta["sha256"]}, 201)


async def attachment(request: Request) -> Response:
    host = _host(request)
    conv = host.conversation
    attachment_id = request.path_params["attachment_id"]
    if conv is None:
        return _err(404, "not_found", "There is no such attachment.")
    if request.method == "DELETE":
        status = host.attachments.delete(conv.id, attachment_id)
        if status == 200:
            if any(a["id"] == attachment_id for a in conv.attachments):
                conv.attachments = [a for a in conv.attachments if a["id"] != attachment_id]
                conv.changed()
            return _json({"deleted": attachment_id})
        if status == 409:
            return _err(409, "attachment_sent", "This attachment was already sent.")
        return _err(404, "not_found", "There is no such attachment.")
    found = host.attachments.read(conv.id, attachment_id)
    if found is None:
        return _err(404, "not_found", "There is no such attachment.")
    meta, data = found
    headers = {"Content-Security-Policy": "default-src 'none'"}
    if meta["kind"] == "text":
        headers["Content-Disposition"] = "attachment"
        return Response(data, media_type="text/plain; charset=utf-8", headers=headers)
    return Response(data, media_type=meta["mime_type"], headers=headers)


def routes() -> list[Route | WebSocketRoute]:
    return [
        Route("/health", health, methods=["GET"]),
        Route("/ui/login", login, methods=["GET"]),
        Route("/", root, methods=["GET"]),
        Route("/ui", page, methods=["GET"]),
        Route("/ui/libraries", page, methods=["GET"]),
        Route("/ui/profile", page, methods=["GET"]),
        Route("/ui/assets/{name}", asset, methods=["GET"]),
        Route("/api/workspaces", workspaces, methods=["GET"]),
        Route("/api/chat/conversations", conversations, methods=["GET"]),
        Route("/api/chat/conversations/{conversation_id}", delete_conversation, methods=["DELETE"]),
        Route("/api/chat/transcript", transcript, methods=["GET"]),
        Route("/api/chat/handoff", handoff, methods=["POST"]),
        Route("/api/workspace/files", files, methods=["GET"]),
        Route("/api/chat/attachments", upload_attachment, methods=["POST"]),
        Route("/api/chat/attachments/{attachment_id}", attachment, methods=["GET", "DELETE"]),
        WebSocketRoute("/api/chat/acp", acp_socket),
    ]


async def http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HttpError)
    return exc.response()


async def not_found(request: Request, exc: Exception) -> Response:
    status = getattr(exc, "status_code", 404)
    if status == 405:
        return _err(405, "method_not_allowed", "This method is not allowed here.")
    return _err(404, "not_found", "There is no such page.")


async def internal(request: Request, exc: Exception) -> Response:
    return _err(500, "internal", "Something went wrong; nothing was changed.")
