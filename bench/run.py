"""`just bench`: run every benchmark module in bench/ and print one table (06 §3).

Each module `bench/bench_*.py` exposes `collect(reps: int) -> list[Sample]`. Results also go to
bench/results/latest.json as {"name": {"median", "min", "max", "unit", "n", "target"}}.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from _common import Sample  # noqa: E402


def load(path: Path):  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> int:
    parser = argparse.ArgumentParser(description="Run clauz3 benchmarks")
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("only", nargs="*", help="benchmark module names (default: all)")
    args = parser.parse_args()
    samples: list[Sample] = []
    for path in sorted(HERE.glob("bench_*.py")):
        if args.only and path.stem.removeprefix("bench_") not in args.only:
            continue
        print(f"running {path.stem} …", file=sys.stderr, flush=True)
        try:
            samples.extend(load(path).collect(args.reps))
        except Exception as exc:  # a broken benchmark must not hide the others
            print(f"  {path.stem} failed: {type(exc).__name__}: {exc}", file=sys.stderr)
    results: dict[str, dict[str, object]] = {}
    width = max([len(s.name) for s in samples] + [4])
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
            verdict = f"≤ {s.target:g} {s.unit} " + ("ok" if med <= s.target else "MISSED")
        print(f"{s.name:<{width}}  {med:>10.4f}  {lo:>10.4f}  {hi:>10.4f}  {len(values):>3}  {verdict}")
    out = HERE / "results"
    out.mkdir(exist_ok=True)
    (out / "latest.json").write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
