"""``clauz3 tools [QUERY] [root flags] [--json]`` (01 §8.4, 05 CLI-15): trusted items from source only."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from clauz3.commands._errors import CommandError
from clauz3.commands._roots import add_root_arguments, resolve_roots

HELP = "List the effects and contract helpers of trusted layers, from source (never imports them)."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("query", nargs="*", metavar="QUERY",
                        help="space-separated terms that must all match (default: list everything)")
    add_root_arguments(parser, discovers=True)
    parser.add_argument("--json", action="store_true", help="print one JSON array (default: text)")


def run(args: argparse.Namespace) -> int:
    from clauz3.layers.catalog_items import list_tools
    from clauz3.layers.discovery import DiscoveryError, discover_trusted_roots

    cwd = Path.cwd()
    trusted, imports = resolve_roots(args, project=cwd)
    if not trusted:
        try:
            trusted = discover_trusted_roots(imports, warn=lambda msg: print(f"warning: {msg}", file=sys.stderr))
        except DiscoveryError as exc:
            raise CommandError(str(exc)) from None
    items, errors = list_tools(trusted)
    for error in errors:
        print(f"warning: {error}", file=sys.stderr)
    query = " ".join(args.query)
    terms = query.split()
    selected = [item for item in items if item.matches(terms)]
    if args.json:
        print(json.dumps([item.to_json(cwd) for item in selected], indent=2, ensure_ascii=False))
        return 0
    if not items:
        print("no trusted tools in the selected roots")
        return 0
    if not selected:
        print(f'no trusted tools match "{query}"')
        return 0
    previous = None
    for item in selected:
        if previous is not None and item.domain != previous:
            print()
        previous = item.domain
        print("\n".join(item.lines()))
    return 0
