"""``clauz3 prove``: prove each entry file and print one line per obligation (01 §8.1)."""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

from clauz3.commands._errors import VERDICT_EXIT, CommandError

HELP = "Prove the guarantees of agent programs against trusted libraries."

_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from clauz3.commands._roots import add_root_arguments

    parser.add_argument("files", nargs="*", metavar="FILE", help="agent programs to prove")
    add_root_arguments(parser)
    parser.add_argument("--allow-import", action="append", default=[], metavar="MOD",
                        help="add a module or dotted prefix to the import allowlist (default: none)")
    parser.add_argument("--target", default="main", help="function to prove (default: main)")
    parser.add_argument("--obligation-timeout", metavar="S", default=None,
                        help="seconds per obligation, 0.1–600 (default: 10)")
    parser.add_argument("--proof-timeout", metavar="S", default=None,
                        help="seconds for the whole proof, 0 < S ≤ 600 (default: 30)")
    parser.add_argument("--no-cache", action="store_true", help="bypass the proof cache (default: use it)")
    parser.add_argument("--json", action="store_true", help="print one JSON document (default: text)")


def timeouts(args: argparse.Namespace) -> tuple[float, float]:
    from clauz3.prover.pipeline import parse_timeout, timeout_from_env

    try:
        if args.obligation_timeout is not None:
            ob = parse_timeout(args.obligation_timeout, "--obligation-timeout", 0.1, 600, True)
        else:
            ob = timeout_from_env("CLAUZ3_OBLIGATION_TIMEOUT_SECONDS", 10.0, 0.1, 600, True)
        if args.proof_timeout is not None:
            pt = parse_timeout(args.proof_timeout, "--proof-timeout", 0, 600, False)
        else:
            pt = timeout_from_env("CLAUZ3_PROOF_TIMEOUT_SECONDS", 30.0, 0, 600, False)
    except ValueError as exc:
        raise CommandError(str(exc)) from None
    return ob, pt


def run(args: argparse.Namespace) -> int:
    from clauz3.commands._roots import resolve_roots
    from clauz3.prover.pipeline import ProofRequest, prove_file_any_layer
    from clauz3.prover.render import render_entry

    files = list(args.files) + list(getattr(args, "trailing_files", []) or [])
    if not files:
        raise CommandError("no program given (see clauz3 prove --help)")
    if not _IDENT.match(args.target) or len(args.target) > 128:
        raise CommandError(f"--target must be an identifier of at most 128 characters, got {args.target!r}")
    obligation_timeout, proof_timeout = timeouts(args)
    worst = 0
    entries = []
    several = len(files) > 1
    for name in files:
        path = Path(name)
        trusted, imports = resolve_roots(args, project=Path.cwd(), program=path)
        req = ProofRequest(
            path=path,
            trusted_roots=trusted,
            import_roots=imports,
            target=args.target,
            allow_imports=list(args.allow_import),
            obligation_timeout=obligation_timeout,
            proof_timeout=proof_timeout,
            use_cache=not args.no_cache,
        )
        outcome = prove_file_any_layer(req)
        worst = max(worst, VERDICT_EXIT[outcome.verdict])
        prefix = f"{name}: " if several else ""
        for line in outcome.stderr:
            print(prefix + line if several and not line.startswith(("error:", "warning:")) else line,
                  file=sys.stderr)
        if args.json:
            entry = outcome.entry.to_json()  # the §4.5 entry: our own two fields are left out
            entry.pop("warnings_text", None)
            entry.pop("target_missing", None)
            entries.append(entry)
        elif not outcome.entry.refused:
            text = render_entry(outcome.entry)
            for line in text.splitlines():
                print(prefix + line)
    if args.json:
        print(json.dumps({"schema_version": 1, "entries": entries}, ensure_ascii=False))
    sys.stdout.flush()
    return worst
