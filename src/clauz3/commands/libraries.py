"""``clauz3 libraries [QUERY…] [--json]`` (05 §5.3): the catalogue, from files only."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from clauz3.commands._errors import from_library

HELP = "Browse bundled, registry, global and project libraries (no network, never imports them)."
NO_MATCH = "No libraries match. Run clauz3 libraries with no query to see all."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("query", nargs="*", metavar="QUERY", help="terms that must all match (default: list all)")
    parser.add_argument("--json", action="store_true", help="print one JSON array (default: text)")


def run(args: argparse.Namespace) -> int:
    from clauz3.layers.catalogue import build_catalogue, query_catalogue, render_text
    from clauz3.layers.liberrors import LibraryError

    try:
        records = query_catalogue(build_catalogue(Path.cwd()), [t for q in args.query for t in q.split()])
    except LibraryError as exc:
        raise from_library(exc) from None
    if args.json:
        print(json.dumps(records, indent=2, ensure_ascii=False))
        return 0
    if not records:
        print(NO_MATCH)
        return 0
    from clauz3.commands._invocation import as_invoked

    # Issue 22: "Install with: clauz3 install …" as the person invokes clauz3 (uv run clauz3 …).
    print(as_invoked("\n\n".join("\n".join(render_text(r)) for r in records)))
    return 0
