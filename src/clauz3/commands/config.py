"""``clauz3 config [--into DIR] [--force]`` (05 CLI-18): merge clauz3's entries into ``.claude/settings.json``."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import Any

from clauz3.commands._errors import CommandError

HELP = "Merge clauz3's permission entries into .claude/settings.json (atomic write)."
# Issue 11 §3: the agent may read, and may run programs only through the person's authority. Not
# `Bash(clauz3:*)`: that granted approval-keygen, mock-approval-service and run with the agent's own
# key and service, and prove/test/tools/lint, which import trusted roots the caller names as code.
# Not `uv run clauz3 run` either: uv would run whatever environment the workspace's own pyproject.toml
# describes, and the agent can write the workspace.
RUN_COMMANDS = ["Bash(clauz3 run:*)"]
ALLOW = ["Read", "Glob", "Grep", *RUN_COMMANDS]
# Entries earlier versions of this command wrote that grant more than ALLOW; removed on merge.
OBSOLETE = ["Bash(clauz3:*)"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--into", metavar="DIR", default=None,
                        help="folder holding .claude/ (default: the current folder)")
    parser.add_argument("--force", action="store_true",
                        help="replace an invalid settings file with the canonical content (default: off)")
    # `clauz3 config smtp …` sets up stdlib:smtp instead (issue 14); its options live in config_smtp.
    parser.add_argument("section", nargs="?", choices=["smtp"], default=None,
                        help="smtp: set the server, sender and password source of stdlib:smtp")
    from clauz3.commands import config_smtp

    config_smtp.add_arguments(parser)


def canonical() -> dict[str, Any]:
    return {"permissions": {"defaultMode": "default", "allow": list(ALLOW)}}


def merge(settings: Any) -> tuple[dict[str, Any], list[str]]:
    """``(merged, changes)``: entries added, then ``removed: …`` ones; raises ValueError naming the wrong shape."""
    if not isinstance(settings, dict):
        raise ValueError("the top level is not a JSON object")
    perms = settings.get("permissions", {})
    if not isinstance(perms, dict):
        raise ValueError("permissions is not an object")
    allow = perms.get("allow", [])
    if not isinstance(allow, list) or not all(isinstance(a, str) for a in allow):
        raise ValueError("permissions.allow is not a list of strings")
    if "defaultMode" in perms and not isinstance(perms["defaultMode"], str):
        raise ValueError("permissions.defaultMode is not a string")
    added: list[str] = []
    perms = dict(perms)
    if "defaultMode" not in perms:
        perms["defaultMode"] = "default"
        added.append("defaultMode")
    new_allow = [a for a in allow if a not in OBSOLETE]
    for entry in ALLOW:
        if entry not in new_allow:
            new_allow.append(entry)
            added.append(entry)
    removed = [a for a in OBSOLETE if a in allow]
    if removed:
        added.append("removed: " + ", ".join(removed))
    perms["allow"] = new_allow
    merged = dict(settings)
    merged["permissions"] = perms
    return merged, added


def _write(path: Path, data: dict[str, Any], mode: int) -> None:
    from clauz3.storage.atomic import write_atomic

    write_atomic(path, (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8"), mode=mode)


def run(args: argparse.Namespace) -> int:
    from clauz3.commands import config_smtp

    if getattr(args, "section", None) == "smtp":
        return config_smtp.run(args)
    if config_smtp.given(args):
        raise CommandError("SMTP options need the section word: clauz3 config smtp …")
    base = Path(args.into) if args.into else Path.cwd()
    if not base.is_dir():
        raise CommandError(f"--into {args.into}: no such directory")
    path = base / ".claude" / "settings.json"
    if os.path.islink(path.parent) or os.path.islink(path):
        raise CommandError(f"{path} is reached through a symbolic link; refusing to write through it")
    if not os.path.lexists(path):
        _write(path, canonical(), 0o644)
        print(f"wrote {path}")
        return 0
    try:
        mode = os.stat(path).st_mode & 0o777
        text = path.read_text("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CommandError(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}") from None
    try:
        merged, added = merge(json.loads(text))
    except ValueError as exc:
        if not args.force:
            problem = "not valid JSON" if isinstance(exc, json.JSONDecodeError) else str(exc)
            raise CommandError(f"{path}: {problem}; re-run with --force to write the canonical content") from None
        _write(path, canonical(), mode)
        print(f"wrote {path}")
        return 0
    if not added:
        print(f"already up to date: {path}")
        return 0
    _write(path, merged, mode)
    print(f"updated {path} (added: {', '.join(added)})")
    return 0
