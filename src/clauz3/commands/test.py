"""``clauz3 test SOURCE``: every ``*_pass.py`` case must prove, every ``*_fail.py`` must not (01 §8.2)."""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

from clauz3.commands._errors import CommandError

HELP = "Run a trusted library's proof cases: *_pass.py must prove, *_fail.py must not."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("source", metavar="SOURCE", help="library folder (or stdlib:<name>)")
    parser.add_argument("--recipe", metavar="NAME", default=None,
                        help="run `just -f SOURCE/tests/Justfile NAME` instead (default: run the cases)")
    parser.add_argument("--require-coverage", action="store_true",
                        help="fail helpers lacking a _pass or _fail case (default: off)")
    parser.add_argument("--jobs", type=int, default=None, metavar="N",
                        help="cases proved in parallel (default: the CPU count)")
    parser.add_argument("--no-cache", action="store_true", help="bypass the proof cache (default: use it)")


def resolve_source(text: str) -> Path:
    if text.startswith("stdlib:"):
        import clauz3

        base = Path(clauz3.__file__).parent / "stdlib" / text.split(":", 1)[1]
        if not base.is_dir():
            raise CommandError(f"unknown standard library {text!r}")
        return base
    path = Path(text)
    if not path.exists():
        raise CommandError(f"{text}: no such library folder")
    if not path.is_dir():
        raise CommandError(f"{text}: not a folder")
    return path.resolve()


def run(args: argparse.Namespace) -> int:
    source = resolve_source(args.source)
    if args.recipe is not None:
        return _run_recipe(source, args.recipe)
    if args.jobs is not None and args.jobs < 1:
        raise CommandError("--jobs must be at least 1 (see clauz3 test --help)")
    from clauz3.prover.casetest import CaseError, run_cases

    try:
        return run_cases(source, jobs=args.jobs or (os.cpu_count() or 1), use_cache=not args.no_cache,
                         require_coverage=args.require_coverage, out=sys.stdout)
    except CaseError as exc:
        raise CommandError(str(exc)) from None


def _run_recipe(source: Path, recipe: str) -> int:
    justfile = source / "tests" / "Justfile"
    just = shutil.which("just")
    if just is None:
        raise CommandError("`just` is not installed (install it with: pip install rust-just)", 4)
    if not justfile.is_file():
        raise CommandError(f"{justfile}: no such file")
    env = dict(os.environ, CLAUZ3=f"{sys.executable} -m clauz3", PYTHON=sys.executable)
    return subprocess.call([just, "-f", str(justfile), recipe], env=env)
