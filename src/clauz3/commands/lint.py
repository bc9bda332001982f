"""``clauz3 lint PATH… [--strict]`` (01 §8.3, 05 CLI-17)."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the linter loads only when the command runs, not when the CLI builds its parser
    from clauz3.layers.lint import LintResult

HELP = "Statically check trusted layers and clauz3.yaml manifests (never imports them)."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", metavar="PATH", help="Python files or folders to lint (required)")
    parser.add_argument("--strict", action="store_true", help="count warnings as findings (default: off)")


def run(args: argparse.Namespace) -> int:
    from clauz3.layers.lint import lint_paths

    result = lint_paths(list(args.paths))
    for finding in result.findings:
        print(finding.format())
    for error in result.errors:
        print(f"error: {error}", file=sys.stderr)
    status = exit_status(result, strict=args.strict)
    if status == 0 and not result.findings:
        # Issue 22: a pass says so (on stderr, so stdout stays the findings list scripts read).
        print(f"clauz3 lint: no findings in {', '.join(args.paths)}.", file=sys.stderr)
    return status


def exit_status(result: LintResult, strict: bool = False) -> int:
    """05 CLI-17: 2 for a missing or unparsable path, 1 for findings that count, else 0."""
    if result.errors:
        return 2
    return 1 if result.failing(strict) else 0
