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
    from clauz3.approvals import _paths
    from clauz3.approvals.app import ApprovalHTTP
    from clauz3.approvals.authority import AuthorityConfig
    from clauz3.approvals.cookies import SessionCookies
    from clauz3.approvals.keys import SigningKey
    from clauz3.approvals.mock import MockAuthority, MockConfig, MockConfigError
    from clauz3.approvals.secretfiles import InsecureFileError
    from clauz3.approvals.service import NotLoopback, bind_loopback, serve, url_host
    from clauz3.commands.approval_service import _number, load_signing_key, token_from_env

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
    except (InsecureFileError, _paths.DataDirError) as exc:
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
