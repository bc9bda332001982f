"""``clauz3 lint PATH… [--strict]`` (01 §8.3, 05 CLI-17)."""

from __future__ import annotations

import argparse
import sys

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
    return result.exit_code(strict=args.strict)
