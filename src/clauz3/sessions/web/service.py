"""The workspace service (02 LAUNCH-3..5, PROC-7): ``python -P -m clauz3.sessions.web.service``.

:func:`build_service` assembles everything for one launch (also used in-process by tests);
:func:`main` is the process: it reads ``ui.json`` once, serves the inherited socket with uvicorn,
reports readiness on the control channel, answers ``new_login`` there, and shuts down on
SIGTERM or EOF of the control channel (launcher gone, even by SIGKILL).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import shutil
import socket
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from clauz3.sessions.agent import prespawn
from clauz3.sessions.errors import SessionError
from clauz3.sessions.launch.config import CONFIG_ENV, LaunchConfig, read_config_once

if TYPE_CHECKING:
    from clauz3.approvals.authority import ApprovalAuthority, AuthorityConfig
    from clauz3.sessions.conversation.host import Host
    from clauz3.sessions.conversation.lifetime import LifetimeServer
    from clauz3.sessions.store.lease import Lease, LeaseHeld
    from clauz3.sessions.web.auth import SignIn
    from clauz3.sessions.web.control import ControlSocket

log = logging.getLogger("clauz3.sessions.web.service")


class StartupError(SessionError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass
class Service:
    config: LaunchConfig
    app: Any
    host: Host
    sign_in: SignIn
    authority: ApprovalAuthority
    lifetime: LifetimeServer
    lease: Lease
    control: ControlSocket

    def new_login(self) -> str:
        return self.sign_in.login_url(self.config.port, self.sign_in.tokens.new())

    async def close(self) -> None:
        await prespawn.discard()  # an adapter started for a conversation that never asked for it
        await self.host.shutdown()
        await self.control.close()
        with contextlib.suppress(Exception):
            await self.authority.close()
        self.host.store.close()
        self.host.recent.close()
        self.host.lease.release()


def lease_message(exc: LeaseHeld) -> str:
    port = exc.port
    where = f" at http://127.0.0.1:{port}/ui" if port else ""
    return f"this project is already open in clauz3 ui{where}; use that tab or stop it first"


def authority_config(config: LaunchConfig, project: str | None = None) -> AuthorityConfig:
    """03 CLI-9: the launch's approval flags; ``--policy`` applies only in the launch project (WSP-8)."""
    from clauz3.approvals.authority import AuthorityConfig
    from clauz3.approvals.policies import PolicyError, load_policy
    from clauz3.sessions.launch.warm_later import LaterWarmVerifier

    policy = None
    if config.policy and (project is None or project == config.project) and config.tutorial is None:
        try:
            policy = load_policy(Path(config.policy))
        except (PolicyError, OSError) as exc:
            raise StartupError("startup_failed", f"{config.policy}: {exc}") from None
    extra: dict[str, Any] = {}
    if config.policy_timeout is not None:
        extra["policy_timeout"] = float(config.policy_timeout)
    if config.approval_wait is not None:
        extra["approval_wait_seconds"] = float(config.approval_wait)
    # One warm child per layer proves requests and evaluates policy rules; the warm starts wait for the
    # first agent (build_service), so they do not compete with it for the CPU (issue 13).
    verifier = LaterWarmVerifier()
    return AuthorityConfig(data_dir=Path(config.data_dir), project=project or config.project, profiles=True,
                           policy=policy, require_sandbox=config.require_sandbox, entails=verifier.entailment,
                           verify=verifier, **extra)


async def build_service(config: LaunchConfig, tmp_dir: Path) -> Service:
    """Everything for one launch; raises :class:`StartupError` with a LAUNCH-6 code."""
    # Imported here, not at module level: `python -m clauz3.sessions.web.service` starts the launch's
    # adapter (prespawn) before these ~0.6 s of imports run (issue 13).
    from starlette.applications import Starlette

    from clauz3.approvals.app import ApprovalHTTP
    from clauz3.approvals.authority import ApprovalAuthority
    from clauz3.approvals.ui import ASSETS as approval_page_assets
    from clauz3.layers.skills import SkillsError
    from clauz3.sessions.conversation.agent_status import AgentStatus
    from clauz3.sessions.conversation.host import Host
    from clauz3.sessions.conversation.lifetime import LifetimeServer
    from clauz3.sessions.launch.warm_later import LaterWarmVerifier, release_when_started
    from clauz3.sessions.store.lease import LeaseHeld, acquire_project_lease
    from clauz3.sessions.store.recent import RecentWorkspaces
    from clauz3.sessions.store.store import ConversationStore, StoreError
    from clauz3.sessions.web.auth import SignIn
    from clauz3.sessions.web.checks import HttpError, RequestChecks
    from clauz3.sessions.web.control import ControlSocket, control_path
    from clauz3.sessions.web.page_constants import page_html
    from clauz3.sessions.web.routes import (
        WEB,
        build_assets,
        http_error,
        internal,
        not_found,
        preload_modules,
        routes,
    )
    from clauz3.sessions.web.state_frame import page_state
    from clauz3.sessions.web.workspace_routes import routes as workspace_routes
    from clauz3.storage.secretfiles import InsecureFileError

    data = Path(config.data_dir)
    project = config.project
    try:
        sign_in = SignIn(data, project)
    except InsecureFileError as exc:
        raise StartupError("startup_failed", str(exc)) from None
    sign_in.tokens.adopt(config.login_token)
    try:
        lease = acquire_project_lease(data, project, port=config.port)
    except LeaseHeld as exc:
        raise StartupError("project_in_use", lease_message(exc)) from None
    try:
        store = ConversationStore.open(data, project)
    except StoreError as exc:
        lease.release()
        raise StartupError(exc.code, str(exc)) from None
    recent = RecentWorkspaces(data)
    recent.record(project)
    try:
        authority = ApprovalAuthority(authority_config(config))
    except StartupError:
        store.close()
        lease.release()
        raise
    lifetime = LifetimeServer(tmp_dir)
    try:
        host = Host(config, authority=authority, lifetime=lifetime, store=store, recent=recent, lease=lease,
                    tmp_dir=tmp_dir, page_state=page_state)
    except SkillsError as exc:
        await authority.close()
        store.close()
        recent.close()
        lease.release()
        raise StartupError("startup_failed", str(exc)) from None
    host.bridge_check.start()
    http = ApprovalHTTP(authority, sign_in.cookies, port=config.port, hostnames=("127.0.0.1",), include_ui=False)
    app = Starlette(routes=[*routes(), *workspace_routes(), *http.routes()], exception_handlers={
        HttpError: http_error, 404: not_found, 405: not_found, Exception: internal})
    app.state.host = host
    app.state.sign_in = sign_in
    app.state.port = config.port
    app.state.assets = build_assets()
    app.state.index_html = preload_modules(page_html((WEB / "index.html").read_text(encoding="utf-8")),
                                           app.state.assets)
    # The approval page mounted from the authority (/ui/requests/{id}) loads its own script and style.
    app.state.assets.update(approval_page_assets)
    wrapped = RequestChecks(app, port=config.port, sign_in=sign_in)
    service = Service(config, wrapped, host, sign_in, authority, lifetime, lease, ControlSocket(
        control_path(data, project), lambda: service.new_login()))
    try:
        await host.open_initial()
    except LeaseHeld:
        await service.close()
        raise StartupError("startup_failed", "the latest conversation is open in another clauz3 process") from None
    await service.control.start()
    host.providers_task = asyncio.create_task(host.load_providers(), name="providers.check")
    verifier = authority.config.verify
    if isinstance(verifier, LaterWarmVerifier):
        app.state.warm_release = asyncio.create_task(release_when_started(verifier, lambda: (
            host.conversation is not None and host.conversation.status == AgentStatus.STARTING)), name="prover.warm")
    return service


# -- the process ---------------------------------------------------------------------------------


def _line(stream: Any, obj: dict[str, Any]) -> None:
    with contextlib.suppress(OSError):
        stream.write((json.dumps(obj) + "\n").encode("utf-8"))
        stream.flush()


async def _serve(config: LaunchConfig, listen_fd: int, control_fd: int) -> int:
    # 00 DEC-6, issue 13: the adapter loads on the other core while this process imports and builds.
    await prespawn.start(config)
    import uvicorn

    tmp_dir = Path(config.tmp_dir)
    control = socket.socket(fileno=control_fd)
    control.setblocking(False)
    writer_stream = os.fdopen(os.dup(control_fd), "wb", buffering=0)
    try:
        service = await build_service(config, tmp_dir)
    except StartupError as exc:
        await prespawn.discard()
        _line(writer_stream, {"ok": False, "error": {"code": exc.code, "message": exc.message}})
        return 2
    except Exception as exc:
        await prespawn.discard()
        log.exception("startup failed")
        _line(writer_stream, {"ok": False, "error": {"code": "startup_failed",
                                                     "message": f"the workspace could not start ({type(exc).__name__})"}})
        return 2
    # 00 DEC-6: the agent and its bridge start with the service, in parallel with uvicorn's start and
    # the browser's page load; Send stays disabled until the agent's session exists.
    if service.host.conversation is not None:
        service.host.conversation.ensure_agent()
    sock = socket.socket(fileno=listen_fd)
    server = uvicorn.Server(uvicorn.Config(
        service.app, log_level="critical", access_log=False, lifespan="off", ws_ping_interval=20,
        ws_ping_timeout=20, ws_max_size=1024 * 1024, timeout_graceful_shutdown=2))
    serving = asyncio.create_task(server.serve(sockets=[sock]))
    while not server.started and not serving.done():
        await asyncio.sleep(0.01)
    if serving.done():
        _line(writer_stream, {"ok": False, "error": {"code": "startup_failed", "message": "the server did not start"}})
        return 2
    _line(writer_stream, {"ok": True})
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_accepted_socket(lambda: asyncio.StreamReaderProtocol(reader), sock=control)

    async def control_loop() -> None:
        while line := await reader.readline():
            try:
                request = json.loads(line.decode("utf-8"))
            except (ValueError, UnicodeDecodeError):
                continue
            if isinstance(request, dict) and request.get("op") == "new_login":
                _line(writer_stream, {"login_url": service.new_login()})
        server.should_exit = True  # EOF: the launcher is gone (PROC-7)

    watcher = asyncio.create_task(control_loop())
    await serving
    watcher.cancel()
    try:
        await asyncio.wait_for(service.close(), 4.0)
    except (TimeoutError, Exception):
        log.exception("shutdown was not clean")
    shutil.rmtree(tmp_dir, ignore_errors=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="clauz3.sessions.web.service")
    parser.add_argument("--listen-fd", type=int, required=True)
    parser.add_argument("--control-fd", type=int, required=True)
    args = parser.parse_args(argv)
    os.umask(0o077)
    path = os.environ.pop(CONFIG_ENV, "")
    try:
        config = read_config_once(Path(path))
    except (OSError, ValueError):
        with contextlib.suppress(OSError):
            os.write(args.control_fd, b'{"ok": false, "error": {"code": "startup_failed", '
                                      b'"message": "the launch configuration is unreadable"}}\n')
        return 2
    if config.debug:
        logging.basicConfig(level=logging.INFO, stream=sys.stderr)
    return asyncio.run(_serve(config, args.listen_fd, args.control_fd))


if __name__ == "__main__":
    sys.exit(main())
