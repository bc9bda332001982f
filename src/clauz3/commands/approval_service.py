"""``clauz3 approval-service`` (03 §17.2): the approval authority served alone on loopback."""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from clauz3.commands._errors import CommandError

if TYPE_CHECKING:
    from clauz3.approvals.keys import SigningKey

HELP = "Serve the approval authority alone on a loopback port."


def _number(text: str, flag: str, lo: float, hi: float) -> float:
    try:
        value = float(text)
    except ValueError:
        raise CommandError(f"{flag} must be a number from {lo:g} to {hi:g}") from None
    if not math.isfinite(value) or not lo <= value <= hi:
        raise CommandError(f"{flag} must be a number from {lo:g} to {hi:g}")
    return value


def add_roots(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--trusted-root", action="append", default=[], metavar="DIR",
                        help="a trusted root (repeatable; order significant)")
    parser.add_argument("--import-root", action="append", default=[], metavar="DIR",
                        help="an import root (repeatable; order significant)")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="loopback address to bind (default 127.0.0.1)")
    parser.add_argument("--port", default="8765", help="port (default 8765; 0 = any free port)")
    parser.add_argument("--policy", metavar="FILE", help="operator policy file (JSON, read once at start)")
    parser.add_argument("--policy-timeout", default="20", metavar="S", help="policy evaluation deadline (1-120)")
    parser.add_argument("--profiles", action="store_true", help="remember approvals in approval-profiles.sqlite")
    parser.add_argument("--project", default=None, metavar="DIR", help="project directory (default: cwd)")
    add_roots(parser)
    parser.add_argument("--approval-wait", default="300", metavar="S", help="approval wait (10-86400)")
    parser.add_argument("--signing-key-file", metavar="PATH", help="file holding the receipt signing key")


def load_signing_key(path: str | None) -> SigningKey | None:
    from clauz3.approvals.keys import KeyError_, SigningKey, read_signing_key_file
    from clauz3.approvals.service import env_secret
    from clauz3.storage.secretfiles import InsecureFileError

    try:
        if path:
            return read_signing_key_file(Path(path))
        text = env_secret("CLAUZ3_APPROVAL_SIGNING_KEY")
        return SigningKey.from_text(text) if text else None
    except InsecureFileError as exc:
        raise CommandError(str(exc)) from exc
    except KeyError_ as exc:
        where = path or "CLAUZ3_APPROVAL_SIGNING_KEY"
        raise CommandError(f"{where}: {exc}") from exc
    except OSError as exc:
        raise CommandError(f"cannot read signing key {path}: {exc.strerror or exc}") from exc


def token_from_env(name: str) -> tuple[str, bool]:
    """(token, generated); a present token must be ≥ 32 chars of [A-Za-z0-9_-] (CRED-2)."""
    from clauz3.approvals.service import env_secret
    from clauz3.approvals.tokens import generate_token, token_format_ok

    value = env_secret(name)
    if value is None:
        return generate_token(), True
    if not token_format_ok(value):
        raise CommandError(f"{name} must be at least 32 characters of A-Z, a-z, 0-9, _ or -")
    return value, False


def run(args: argparse.Namespace) -> int:
    from clauz3.approvals.app import ApprovalHTTP
    from clauz3.approvals.authority import ApprovalAuthority, AuthorityConfig
    from clauz3.approvals.cookies import SessionCookies
    from clauz3.approvals.keys import SigningKey
    from clauz3.approvals.policies import PolicyError, load_policy
    from clauz3.approvals.service import NotLoopback, bind_loopback, discover_default_layer, serve, url_host
    from clauz3.prover.verify import ProofVerifier
    from clauz3.storage import paths as _paths
    from clauz3.storage.secretfiles import InsecureFileError

    port = int(_number(args.port, "--port", 0, 65535))
    wait = _number(args.approval_wait, "--approval-wait", 10, 86400)
    policy_timeout = _number(args.policy_timeout, "--policy-timeout", 1, 120)
    submission, generated = token_from_env("CLAUZ3_APPROVAL_TOKEN")
    approver, _ = token_from_env("CLAUZ3_APPROVAL_DECISION_TOKEN")
    if approver == submission:
        raise CommandError("CLAUZ3_APPROVAL_TOKEN and CLAUZ3_APPROVAL_DECISION_TOKEN must differ")
    key = load_signing_key(args.signing_key_file) or SigningKey.generate()
    project = Path(args.project or os.getcwd()).resolve()
    if not project.is_dir():
        raise CommandError(f"--project {args.project}: not a directory")
    trusted, imports = list(args.trusted_root), list(args.import_root)
    if not trusted and not imports:
        trusted, imports = discover_default_layer(project)
    policy = None
    if args.policy:
        try:
            policy = load_policy(Path(args.policy))
        except PolicyError as exc:
            raise CommandError(f"{args.policy}: {exc}") from exc
        resolved = os.path.realpath(args.policy)
        for root in [str(project), *imports]:
            if resolved.startswith(os.path.realpath(root) + os.sep):
                print(f"warning: policy file {args.policy} lies inside {root}, which agents can write",
                      file=sys.stderr)
                break
    try:
        data = _paths.data_dir()
        cookies = SessionCookies(data, str(project))
    except (InsecureFileError, _paths.RelativeHomeError) as exc:
        raise CommandError(str(exc)) from exc
    except OSError as exc:
        raise CommandError(f"cannot prepare the data directory: {exc.strerror or exc}") from exc
    try:
        sock = bind_loopback(args.host, port)
    except NotLoopback as exc:
        raise CommandError(str(exc)) from exc
    except OSError as exc:
        raise CommandError(f"cannot listen on {args.host}:{port}: {exc.strerror or exc}") from exc
    verifier = ProofVerifier()  # one warm child per layer proves requests and evaluates policy rules
    authority = ApprovalAuthority(AuthorityConfig(
        data_dir=data, project=str(project), signing_key=key, approval_wait_seconds=wait, policy=policy,
        policy_timeout=policy_timeout, profiles=args.profiles, entails=verifier.entailment, verify=verifier))
    authority.register_conversation(None, trusted, imports, token=submission)
    http = ApprovalHTTP(authority, cookies, approver_token=approver, port=sock.getsockname()[1])
    base = f"http://{url_host(sock)}"
    _publish_anchor(data, project, base, key.verify_key.text, trusted, imports)
    print(f"CLAUZ3_APPROVAL_SERVICE={base}")
    if generated:
        print(f"CLAUZ3_APPROVAL_TOKEN={submission}")
    print(f"CLAUZ3_APPROVAL_VERIFY_KEY={key.verify_key.text}")
    print(f"Approver UI (keep private): {base}/ui/login?key={approver}", flush=True)
    try:
        asyncio.run(serve(http, sock))
    finally:
        from clauz3.approvals.anchor import remove_anchor

        remove_anchor(data, project)
        verifier.close()  # its prover children also exit when this process does
    return 0


def _publish_anchor(data: Path, project: Path, url: str, verify_key: str, trusted: list[str],
                    imports: list[str]) -> None:
    """Issue 11 §3: tell ``clauz3 run`` (through the data dir, never the workspace) which authority,
    key and layer to trust for this project; a second live service for the project is refused."""
    from clauz3.approvals.anchor import AUTHORITY, AnchorRecord, read_anchor, write_anchor
    from clauz3.approvals.layers import AuthorisedLayer

    other = read_anchor(data, project)
    if other is not None and other.pid != os.getpid():
        raise CommandError(f"an approval service is already running for {project} (pid {other.pid}); stop it first")
    layer = AuthorisedLayer.resolve(project, trusted, imports)
    try:
        write_anchor(data, AnchorRecord(AUTHORITY, url, verify_key, layer.project, layer.trusted_roots,
                                        layer.import_roots, os.getpid()))
    except OSError as exc:
        raise CommandError(f"cannot publish the service's trust record: {exc.strerror or exc}") from exc
