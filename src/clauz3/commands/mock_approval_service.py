"""``clauz3 mock-approval-service --config FILE`` (03 CLI-8): fixed decisions with real receipts."""

from __future__ import annotations

import argparse
import asyncio
import os
from pathlib import Path

from clauz3.commands._errors import CommandError

HELP = "Serve a mock approval authority that answers every request with a configured decision."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", required=True, metavar="FILE", help="mock config (JSON)")
    parser.add_argument("--host", default="127.0.0.1", help="loopback address to bind (default 127.0.0.1)")
    parser.add_argument("--port", default="0", help="port (default 0 = any free port)")
    parser.add_argument("--signing-key-file", metavar="PATH", help="file holding the receipt signing key")


def run(args: argparse.Namespace) -> int:
    from clauz3.approvals.app import ApprovalHTTP
    from clauz3.approvals.authority import AuthorityConfig
    from clauz3.approvals.cookies import SessionCookies
    from clauz3.approvals.keys import SigningKey
    from clauz3.approvals.mock import MockAuthority, MockConfig, MockConfigError
    from clauz3.approvals.service import NotLoopback, bind_loopback, serve, url_host
    from clauz3.commands.approval_service import _number, load_signing_key, token_from_env
    from clauz3.storage import paths as _paths
    from clauz3.storage.secretfiles import InsecureFileError

    _refuse_beside_a_real_authority()
    try:
        mock = MockConfig.load(Path(args.config))
    except MockConfigError as exc:
        raise CommandError(str(exc)) from exc
    port = int(_number(args.port, "--port", 0, 65535))
    token, generated = token_from_env("CLAUZ3_APPROVAL_TOKEN")
    key = load_signing_key(args.signing_key_file) or SigningKey.generate()
    project = Path(os.getcwd()).resolve()
    try:
        data = _paths.data_dir()
        cookies = SessionCookies(data, str(project))
    except (InsecureFileError, _paths.RelativeHomeError) as exc:
        raise CommandError(str(exc)) from exc
    try:
        sock = bind_loopback(args.host, port)
    except NotLoopback as exc:
        raise CommandError(str(exc)) from exc
    except OSError as exc:
        raise CommandError(f"cannot listen on {args.host}:{port}: {exc.strerror or exc}") from exc
    authority = MockAuthority(AuthorityConfig(data_dir=data, project=str(project), signing_key=key), mock)
    authority.register_submitter(token)
    http = ApprovalHTTP(authority, cookies, port=sock.getsockname()[1], mock=True)
    print(f"CLAUZ3_APPROVAL_SERVICE=http://{url_host(sock)}")
    if generated:
        print(f"CLAUZ3_APPROVAL_TOKEN={token}")
    print(f"CLAUZ3_APPROVAL_VERIFY_KEY={key.verify_key.text}", flush=True)
    asyncio.run(serve(http, sock))
    return 0


# What configures a real authority or its clients: where any is set, a mock is no stand-in but a forgery.
REAL_SERVICE_ENV = ("CLAUZ3_APPROVAL_SERVICE", "CLAUZ3_APPROVAL_VERIFY_KEY", "CLAUZ3_APPROVAL_SIGNING_KEY",
                    "CLAUZ3_APPROVAL_DECISION_TOKEN", "CLAUZ3_SESSION_LIFETIME_SOCKET", "CLAUZ3_BRIDGE_TICKET_FILE")


def _refuse_beside_a_real_authority() -> None:
    """Issue 11 §3: the mock never runs where the real service's environment is present: a variable
    of a real authority, a live approval service of this project, or a running ui/start service."""
    import socket

    from clauz3.approvals.anchor import AUTHORITY, read_anchor
    from clauz3.storage import paths as _paths

    for name in REAL_SERVICE_ENV:
        if os.environ.get(name):
            raise CommandError(f"refusing to serve a mock: {name} is set, so this environment uses a real "
                               "approval authority")
    project = Path(os.getcwd()).resolve()
    try:
        data = _paths.data_dir()
    except _paths.RelativeHomeError as exc:
        raise CommandError(str(exc)) from exc
    live = read_anchor(data, project)
    if live is not None and live.kind == AUTHORITY:
        raise CommandError(f"refusing to serve a mock: the approval service of {project} is running (pid {live.pid})")
    control = _paths.workspace_state_dir(data, project) / "control.sock"
    if control.exists():
        probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        probe.settimeout(1.0)
        try:
            probe.connect(str(control))
        except OSError:
            pass  # a stale socket of a service that is gone
        else:
            raise CommandError(f"refusing to serve a mock: a clauz3 service is running for {project}")
        finally:
            probe.close()
