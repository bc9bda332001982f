"""`just bench`: run every benchmark module in bench/ and print one table (06 §3).

Each module `bench/bench_*.py` exposes `collect(reps: int) -> list[Sample]`. Results also go to
bench/results/latest.json as {"name": {"median", "min", "max", "unit", "n", "target"}}.

Exit status: 1 when any entry could not be measured (its module raised, it came back with no values,
a module returned without an entry it names, or the module marked it unmeasured) or when a count bar
(QB-…, target 0) was missed; 0 otherwise. A missed timing target is printed as MISSED but does not
change the exit status (docs/decisions.md): timings move with the machine's load, counts do not.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import sys
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from _common import Sample  # noqa: E402

# The entries each module must produce (06 §3 and §4, bench/README.md): one that goes missing is
# reported unmeasured rather than silently left out of the table. A module may name its own in EXPECTED.
EXPECTED: dict[str, tuple[str, ...]] = {
    "bench_prover": ("prove_case", "prove_corpus"),
    "bench_runs": ("run_cold", "remembered_match"),
    "bench_ui": ("ui_start_port", "ui_start_page", "first_chunk", "card_ready", "card_ready_repeat",
                 "approve_done", "stream_1k", "stream_10k", "restore_1k", "restore_10k", "service_rss",
                 "tree_rss", "stream_10k/stream_1k", "restore_10k/restore_1k"),
    "bench_store": ("history_search", "history_search_common", "files_list"),
    "bench_counts": ("qb11_receipts_accepted", "qb13_kill_failures", "qb14_files_escapes",
                     "qb15_ws_fuzz_failures", "qb16_inert_failures", "qb17_flood_failures",
                     "qb18_limit_failures", "qb19_concurrency_failures", "qb20_secret_failures"),
}


def load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _one_line(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {' '.join(str(exc).split())[:300]}"


def run_module(path: Path, reps: int) -> tuple[list[Sample], dict[str, str]]:
    """The module's samples and, by entry name, why an entry could not be measured."""
    unmeasured: dict[str, str] = {}
    try:
        module = load(path)
    except Exception as exc:  # a broken benchmark must not hide the others, nor pass unnoticed
        return [], {path.stem: f"module failed to load: {_one_line(exc)}"}
    expected = tuple(getattr(module, "EXPECTED", None) or EXPECTED.get(path.stem, ()))
    try:
        samples = list(module.collect(reps))
    except Exception as exc:
        reason = f"{path.stem} raised {_one_line(exc)}"
        return [], {name: reason for name in expected} or {path.stem: reason}
    measured: list[Sample] = []
    for s in samples:
        if s.unmeasured is not None:
            unmeasured[s.name] = s.unmeasured
        elif not s.values:
            unmeasured[s.name] = "no values were recorded"
        else:
            measured.append(s)
    names = {s.name for s in samples}
    for name in expected:
        if name not in names:
            unmeasured[name] = f"{path.stem} returned no {name} entry (a phase failed: see its message above)"
    return measured, unmeasured


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Run clauz3 benchmarks")
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--dir", type=Path, default=HERE, help="folder of bench_*.py modules (default: bench/)")
    parser.add_argument("--results", type=Path, default=HERE / "results", help="where latest.json goes")
    parser.add_argument("only", nargs="*", help="benchmark module names (default: all)")
    args = parser.parse_args(argv)
    if args.reps < 1:
        parser.error("--reps must be at least 1")
    paths = [p for p in sorted(args.dir.glob("bench_*.py"))
             if not args.only or p.stem.removeprefix("bench_") in args.only]
    known = {p.stem.removeprefix("bench_") for p in args.dir.glob("bench_*.py")}
    unknown = [name for name in args.only if name not in known]
    samples: list[Sample] = []
    unmeasured: dict[str, str] = {f"bench_{name}": "no such benchmark module" for name in unknown}
    for path in paths:
        print(f"running {path.stem} …", file=sys.stderr, flush=True)
        got, missing = run_module(path, args.reps)
        samples.extend(got)
        unmeasured.update(missing)
    results: dict[str, dict[str, object]] = {}
    missed: list[str] = []
    failed_counts: list[str] = []
    width = max([len(s.name) for s in samples] + [len(n) for n in unmeasured] + [4])
    print(f"{'name':<{width}}  {'median':>10}  {'min':>10}  {'max':>10}  {'n':>3}  target")
    for s in samples:
        values = s.values
        if s.kind == "ratio":
            med = lo = hi = values[0]
        else:
            med, lo, hi = statistics.median(values), min(values), max(values)
        results[s.name] = {"median": med, "min": lo, "max": hi, "unit": s.unit, "n": len(values),
                           "target": s.target}
        verdict = ""
        if s.target is not None:
            ok = med <= s.target
            verdict = f"≤ {s.target:g} {s.unit} " + ("ok" if ok else "MISSED")
            if not ok:
                (failed_counts if s.kind == "count" else missed).append(f"{s.name} {med:g} {s.unit} > {s.target:g}")
        if s.note:
            verdict += f"  ({s.note})"
        print(f"{s.name:<{width}}  {med:>10.4f}  {lo:>10.4f}  {hi:>10.4f}  {len(values):>3}  {verdict}")
    for name, reason in unmeasured.items():
        results[name] = {"unmeasured": reason}
        print(f"{name:<{width}}  {'UNMEASURED':>10}  {reason}")
    args.results.mkdir(exist_ok=True)
    out = args.results / "latest.json"
    tmp = out.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(results, indent=2) + "\n")
    tmp.replace(out)
    for line in missed:
        print(f"MISSED target: {line}", file=sys.stderr)
    for line in failed_counts:
        print(f"FAILED count bar: {line}", file=sys.stderr)
    for name, reason in unmeasured.items():
        print(f"UNMEASURED: {name}: {reason}", file=sys.stderr)
    if unmeasured or failed_counts:
        print(f"bench: {len(unmeasured)} entr{'y' if len(unmeasured) == 1 else 'ies'} unmeasured, "
              f"{len(failed_counts)} count bar(s) failed", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
