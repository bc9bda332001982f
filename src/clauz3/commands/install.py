"""``clauz3 install SOURCE | --remove DOMAIN`` (05 §6.5): review, confirm, apply."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from clauz3.commands._errors import CommandError, from_library

HELP = "Review and install, update (--force) or remove (--remove) a trusted library."
NO_TTY = "refusing to apply without confirmation; re-run with --yes, or --dry-run to only review"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("source", nargs="?", metavar="SOURCE",
                        help="stdlib:NAME, a local folder holding tools/, global:DOMAIN, gh:ORG/REPO[@REF] or a "
                             "git URL[@REF] (default: none; required unless --remove)")
    parser.add_argument("--remove", metavar="DOMAIN", default=None, help="remove an installed domain (default: none)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--into", metavar="DIR", default=None,
                       help="project folder to install into (default: the current folder)")
    where.add_argument("-g", "--global", dest="global_", action="store_true",
                       help="use the global store in the clauz3 data folder (default: off)")
    parser.add_argument("--force", action="store_true", help="review replacing an installed copy (default: off)")
    parser.add_argument("--skills", action="store_true",
                        help="generate .clauz3/skills/<domain>/SKILL.md at apply (default: off)")
    parser.add_argument("--dry-run", action="store_true", help="print the review and change nothing (default: off)")
    parser.add_argument("--yes", action="store_true", help="apply without asking (default: ask on a terminal)")


def _inside(path: Path, parent: Path) -> bool:
    try:
        Path(os.path.realpath(path)).relative_to(os.path.realpath(parent))
        return True
    except ValueError:
        return False


def _target(args: argparse.Namespace) -> Any:
    from clauz3.layers.locations import Target, data_dir

    data = data_dir()
    if args.global_:
        return Target.for_global(data)
    project = Path(args.into) if args.into else Path.cwd()
    if args.into and not project.is_dir():
        raise CommandError(f"--into {args.into}: no such directory")
    if _inside(project, data):
        raise CommandError(f"{project} is inside the clauz3 data directory; install into a project folder instead")
    return Target.for_project(project, data)


def print_review(record: dict[str, Any]) -> None:
    print(f"Review: {record['action']} {record['source']} into {record['into']}")
    for change in record["changes"]:
        a, c, r = len(change["added"]), len(change["changed"]), len(change["removed"])
        print(f"{change['domain']}: {a} added · {c} changed · {r} removed")
        for mark, key in (("+", "added"), ("~", "changed"), ("−", "removed")):
            for path in change[key]:
                print(f"  {mark} {path}")
    for domain, report in record.get("mock_declarations", {}).items():
        kind = {"mock": "🧪 Mock", "mixed": "🧪 Mixed", "unmarked": "Undeclared"}.get(report.get("kind"))
        if kind:
            print(f"{domain}: {kind}")
    if record["requirements"]:
        print("Requires: " + "; ".join(record["requirements"]))
    if record["warnings"]:
        print("Warnings: " + "; ".join(record["warnings"]))


def _confirm() -> bool:
    print("Apply this change? [y/N] ", end="", file=sys.stderr, flush=True)
    try:
        answer = sys.stdin.readline()
    except EOFError:
        return False
    return answer.strip().lower() in ("y", "yes")


def run(args: argparse.Namespace) -> int:
    from clauz3.layers.apply import apply_review
    from clauz3.layers.liberrors import LibraryError
    from clauz3.layers.review import discard_staging, prepare_install, prepare_remove

    if (args.source is None) == (args.remove is None):
        raise CommandError("give either SOURCE or --remove DOMAIN (see clauz3 install --help)")
    if args.remove is not None and (args.force or args.skills):
        raise CommandError("--force and --skills do not apply to --remove (see clauz3 install --help)")
    interactive = sys.stdin.isatty()
    if not args.dry_run and not args.yes and not interactive:
        raise CommandError(NO_TTY)

    def warn(message: str) -> None:
        print(f"warning: {message}", file=sys.stderr)

    try:
        target = _target(args)
        if args.remove is not None:
            record = prepare_remove(target, args.remove)
        else:
            record = prepare_install(target, args.source, force=args.force, skills=args.skills, warn=warn)
        try:
            print_review(record)
            if args.dry_run:
                discard_staging(target)
                return 0
            if not args.yes and not _confirm():
                discard_staging(target)
                print("cancelled; nothing changed")
                return 0
        except BaseException:
            discard_staging(target)
            raise
        result = apply_review(target, record["id"], cli=True)
    except LibraryError as exc:
        raise from_library(exc) from None
    verb = {"install": "installed", "update": "updated", "remove": "removed"}[result.action]
    for d in result.domains:
        print(f"{verb} {d} (from {result.source}) → {result.into / d}")
    if result.backup is not None:
        print(f"backup: {result.backup}")
    for path in result.skills:
        print(f"generated skill: {path}")
    for warning in result.warnings:
        warn(warning)
    if target.kind == "global" and result.action != "remove":
        for d in result.domains:
            print(f"use in a project: clauz3 install global:{d}")
    return 0
