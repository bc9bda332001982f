"""``python -P -m clauz3.bridge --project DIR [--trusted-root R]… [--import-root R]… [--check]``.

Start-up order: ``--check`` prints the six names and exits 0 (04 ACP-9). Otherwise the lifetime
handshake comes first (no credentials → exit 2, before any MCP traffic), then the start snapshots
(catalogue, libraries, skills, run snapshot), the warm prover, and the stdio server. When the
host's socket closes the bridge kills its active worker group and exits 143 (LIFE-1).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from clauz3.bridge import TOOL_NAMES

EXIT_USAGE = 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -P -m clauz3.bridge",
                                     description="The clauz3 MCP bridge (stdio); started by the clauz3 host.")
    parser.add_argument("--project", metavar="DIR", help="the workspace root (default: the current folder)")
    parser.add_argument("--trusted-root", action="append", default=[], metavar="PATH",
                        help="a selected library's trusted root, in order (repeatable)")
    parser.add_argument("--import-root", action="append", default=[], metavar="PATH",
                        help="an import root, in order (repeatable; default: <project>/.clauz3, <project>)")
    parser.add_argument("--skills-dir", action="append", default=[], metavar="DIR",
                        help="an operator skills folder to snapshot at start (repeatable)")
    parser.add_argument("--no-warm", action="store_true", help="always start cold workers (no warm prover)")
    parser.add_argument("--check", action="store_true", help="print the six tool names as JSON and exit")
    return parser


def _warn(message: str) -> None:
    print(f"clauz3 bridge: warning: {message}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.check:
        print(json.dumps(list(TOOL_NAMES)))
        return 0
    from clauz3.bridge.lifetime import BootstrapError, LifetimeLink

    project = Path(os.path.realpath(args.project or os.getcwd()))
    if not project.is_dir():
        print(f"error: --project {args.project}: not a folder", file=sys.stderr)
        return EXIT_USAGE
    from clauz3.storage.paths import RelativeHomeError, data_dir

    try:
        data_dir()
    except RelativeHomeError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    try:
        link = LifetimeLink.from_environment()
        creds = link.handshake()
    except BootstrapError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    for name in ("CLAUZ3_BRIDGE_TICKET", "CLAUZ3_BRIDGE_TICKET_FILE", "CLAUZ3_SESSION_LIFETIME_SOCKET"):
        os.environ.pop(name, None)  # spent; workers never see them (CRED-5)
    return _serve(args, project, link, creds)


def _serve(args: argparse.Namespace, project: Path, link: object, creds: object) -> int:
    import anyio

    from clauz3.base.memory import bare_packages

    # A stdio server: the SDK's package inits would import its HTTP client and cryptography (06 tree_rss).
    bare_packages("mcp", "mcp.server")
    from clauz3.bridge.catalogue import snapshot_libraries, snapshot_tools
    from clauz3.bridge.lifetime import EXIT_HOST_GONE, Credentials, LifetimeLink
    from clauz3.bridge.runs_tool import RunService
    from clauz3.bridge.server import BridgeState, serve_stdio
    from clauz3.bridge.skills import SkillSnapshot

    assert isinstance(link, LifetimeLink) and isinstance(creds, Credentials)
    trusted = list(args.trusted_root)
    if args.import_root:
        imports = list(args.import_root)
    else:
        from clauz3.layers.discovery import default_import_roots

        imports = [str(p) for p in default_import_roots(project)]
    scan_roots = [Path(r) if os.path.isabs(r) else project / r for r in trusted]
    warm = None
    if trusted and not args.no_warm:
        from clauz3.bridge.warm import WarmProver

        warm = WarmProver.start(project=project, trusted_roots=trusted, import_roots=imports)
    runs = RunService(project=project, trusted_roots=trusted, import_roots=imports, credentials=creds,
                      push=link.push, spawn=warm.spawn if warm is not None else None)

    def host_gone() -> None:
        runs.kill_active_group()  # LIFE-1: first the worker group, then ourselves (within 1 s)
        if warm is not None:
            warm.kill()
        os._exit(EXIT_HOST_GONE)

    try:
        runs.load_snapshot()
    except Exception as exc:  # SNAP-2: snapshot trouble never stops the bridge
        _warn(f"run snapshot not loaded: {exc}")
    state = BridgeState(tools=snapshot_tools(scan_roots, _warn), libraries=snapshot_libraries(project, _warn),
                        skills=SkillSnapshot.take(project, args.skills_dir, _warn, trusted), runs=runs)
    link.start(on_cancel=lambda rid: runs.cancel(rid, "stopped"), on_close=host_gone)
    try:
        anyio.run(serve_stdio, state)
    except KeyboardInterrupt:
        pass
    finally:
        runs.kill_active_group()
        if warm is not None:
            warm.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
