"""Libraries and undo routes of the workspace (02 §3.4; 05 §6.6, FS-5..FS-7).

``GET /api/workspace/libraries`` and ``POST /api/workspace/libraries/{action}`` (``inspect``,
``prepare``, ``apply``, ``select``, ``discard``) call :mod:`clauz3.layers.webapi` off the event
loop; ``GET /api/workspace/runs/{run_id}/file-changes`` and ``POST …/undo`` call
:mod:`clauz3.runs.fileundo` on the current project's journals. Auth, Host, Origin and body checks
already ran (:mod:`.checks`); errors are ``{"error": {"code", "message"}}``.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from clauz3.layers import webapi
from clauz3.layers.liberrors import LibraryError
from clauz3.sessions.conversation.host import Host
from clauz3.sessions.conversation.library_health import manifest_problems, without_broken
from clauz3.sessions.conversation.run_journals import journal_file
from clauz3.sessions.web.checks import read_json_body

LIBRARY_ACTIONS = ("inspect", "prepare", "apply", "select", "discard")
BUSY = "An action is still running; wait for it or press Stop."
UNKNOWN_RUN = "There is no such run in this workspace."


def _err(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


# Library error code → HTTP status (05 §6.6): the web edge's table; layers/ raises codes only.
LIBRARY_STATUS: dict[str, int] = {
    "invalid_request": 400,
    "unknown_source": 404,
    "busy": 409,
    "in_use": 409,
    "review_expired": 409,
    "changed_since_review": 409,
    "refused": 409,
    "invalid_library": 422,
    "source_unavailable": 502,
}


def library_status(code: str) -> int:
    return LIBRARY_STATUS.get(code, 409)


def _lib_error(exc: LibraryError) -> JSONResponse:
    return JSONResponse(exc.to_json(), status_code=library_status(exc.code))


def _host(request: Request) -> Host:
    host: Host = request.app.state.host
    return host


# -- libraries (05 §6.6) ----------------------------------------------------------------------------


async def libraries(request: Request) -> Response:
    host = _host(request)
    conv = host.conversation
    active = list(conv.saved.libraries) if conv is not None else []
    try:
        body = await asyncio.to_thread(_snapshot, host, active)
    except LibraryError as exc:
        return _lib_error(exc)
    return JSONResponse(body)


def _snapshot(host: Host, active: list[str]) -> dict[str, Any]:
    """The libraries snapshot plus each broken manifest's error (issue 22): a broken library is never
    among the defaults the page shows ticked, since a new conversation leaves it out."""
    body = webapi.libraries_snapshot(Path(host.project), active=active, busy=not host.idle, data=host.data_dir)
    problems = manifest_problems(host.project, host.data_dir)
    body["manifest_errors"] = problems
    body["selected"] = without_broken(body.get("selected") or [], problems)
    return body


def _field(body: dict[str, Any], name: str, *, required: bool = True) -> Any:
    value = body.get(name)
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value or len(value) > 4096:
        raise LibraryError(f"{name} must be a non-empty string", "invalid_request")
    return value


async def library_action(request: Request) -> Response:
    host = _host(request)
    action = request.path_params["action"]
    if action not in LIBRARY_ACTIONS:
        return _err(400, "invalid_request", f"Unknown library action {action[:40]!r}.")
    body = await read_json_body(request)
    if not isinstance(body, dict):
        return _err(400, "invalid_request", "The request body must be a JSON object.")
    project, data = Path(host.project), host.data_dir
    try:
        if action == "inspect":
            result = await asyncio.to_thread(webapi.inspect_source, project, _field(body, "source"), data)
        elif action == "prepare":
            kind = _field(body, "action")
            result = await asyncio.to_thread(webapi.prepare, project, kind, source=_field(body, "source", required=False),
                                             domain=_field(body, "domain", required=False), data=data)
        elif action == "apply":
            result = await _apply(host, _field(body, "id"))
        elif action == "select":
            domains = body.get("domains")
            if not isinstance(domains, list) or not all(isinstance(d, str) for d in domains):
                raise LibraryError("domains must be a list of names", "invalid_request")
            result = await asyncio.to_thread(webapi.select, project, domains, data)
        else:
            if body:
                raise LibraryError("the discard body must be {}", "invalid_request")
            result = await asyncio.to_thread(webapi.discard, project, data)
    except LibraryError as exc:
        return _lib_error(exc)
    return JSONResponse(result)


async def _apply(host: Host, review_id: str) -> dict[str, Any]:
    """INS-8 in the browser: refused while anything runs; the page sees ``operation: "libraries"``."""
    conv = host.conversation
    active = list(conv.saved.libraries) if conv is not None else []
    if not host.idle:
        raise LibraryError(BUSY, "busy")
    host.operation = "libraries"
    host.state_changed()
    try:
        return await asyncio.to_thread(webapi.apply, Path(host.project), review_id, busy=False,
                                       active_domains=active, data=host.data_dir)
    finally:
        host.operation = None
        host.state_changed()


# -- file changes and undo (05 FS-5..FS-7) ------------------------------------------------------------


def _journal(host: Host, run_id: str) -> str | None:
    """The current project's journal of ``run_id``, or None (unknown or another project's run: 404)."""
    return journal_file(host.data_dir, host.project, run_id)


async def file_changes(request: Request) -> Response:
    from clauz3.runs.fileundo import file_changes as summarise

    host = _host(request)
    run_id = request.path_params["run_id"]
    path = _journal(host, run_id)
    if path is None:
        return _err(404, "not_found", UNKNOWN_RUN)
    try:
        summary = await asyncio.to_thread(summarise, path)
    except (OSError, ValueError):
        return _err(404, "not_found", "Undo is no longer available for this run.")
    return JSONResponse({"run_id": run_id, **summary})


async def undo(request: Request) -> Response:
    from clauz3.runs.fileundo import AlreadyUndone
    from clauz3.runs.fileundo import undo as undo_run

    host = _host(request)
    run_id = request.path_params["run_id"]
    body = await read_json_body(request)
    if body != {}:
        return _err(400, "invalid_request", "The undo body must be {}.")
    path = _journal(host, run_id)
    if path is None:
        return _err(404, "not_found", UNKNOWN_RUN)
    conv = host.conversation
    if (conv is not None and conv.run_active()) or host.operation is not None:
        return _err(409, "busy", BUSY)
    protected = tuple(host.layer(host.domains())[0])
    try:
        results = await asyncio.to_thread(undo_run, host.project, path, protected)
    except AlreadyUndone:
        return _err(409, "already_undone", "These file changes were already undone.")
    except (OSError, ValueError) as exc:
        return _err(409, "not_undoable", f"Undo is not possible for this run: {exc}.")
    out = [r.as_dict() for r in results]
    host.after_undo(run_id, out)
    return JSONResponse({"results": out})


def routes() -> list[Route]:
    return [
        Route("/api/workspace/libraries", libraries, methods=["GET"]),
        Route("/api/workspace/libraries/{action}", library_action, methods=["POST"]),
        Route("/api/workspace/runs/{run_id}/file-changes", file_changes, methods=["GET"]),
        Route("/api/workspace/runs/{run_id}/undo", undo, methods=["POST"]),
    ]
