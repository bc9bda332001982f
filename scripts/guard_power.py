"""How strong is the generative guard? Plant bugs in a scratch copy of clauz3 and count those it catches.

``uv run python scripts/guard_power.py [--programs 200] [--runs 20] [--seed 0] [--jobs 2] [--only NAME]…
[--list] [--keep DIR]``. For each plant: copy ``src/clauz3`` to a temporary directory, patch the copy
(by anchored text: the anchor must occur exactly once, or the plant is reported ``anchor gone`` with
the file it looked in), and run the generative differential check (``tests/soundness/gen_check.py``,
random engine, the default-tier budget) with ``PYTHONPATH`` pointing at the copy. ``src/`` is never
modified. A plant is caught when the check reports a violation; the table says by which program.
A plant that makes the check crash (the prover raising, found as a ``prover-crash``; the generator,
checker or interpreter raising, which ends the check without its summary; no summary in time) is
not caught: a crash shows the plant broke the code, not that the guard saw a wrong proof. It is
reported ``crash`` or ``error`` and measures nothing.
First the unplanted copy must run clean (a guard that fails without a bug measures nothing).
Exit 0 when at least 90 % of the applied plants are caught, 1 below, 2 when the baseline fails, an
anchor is gone or a plant crashed the check.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SRC = REPO / "src" / "clauz3"
GEN_CHECK = REPO / "tests" / "soundness" / "gen_check.py"
THRESHOLD = 0.9
# Violation kinds of gen_check.py that are a crash of the code under test, not a wrong proof it caught.
CRASH_KINDS = ("prover-crash",)


@dataclass(frozen=True)
class Plant:
    name: str
    file: str  # relative to src/clauz3
    anchor: str
    replacement: str
    what: str


PLANTS = [
    Plant("drop-zero-division", "prover/ops.py",
          'ex.exception("ZeroDivisionError", node, y != 0, _src(node) or f"… {op} …",',
          'ex.exception("ZeroDivisionError", node, z3.BoolVal(True), _src(node) or f"… {op} …",',
          "drop an exception obligation: int // and % by zero"),
    Plant("drop-index-error", "prover/access.py",
          'ex.exception("IndexError", node, z3.And(-n <= i, i < n), src,',
          'ex.exception("IndexError", node, i < n, src,',
          "drop half an exception obligation: negative indexes past the start"),
    Plant("drop-key-error", "prover/access.py",
          'ex.exception("KeyError", node, found, src, (("key", index),))',
          'ex.exception("KeyError", node, z3.BoolVal(True), src, (("key", index),))',
          "drop an exception obligation: d[k] of a missing key"),
    # In ops.positions, which every enumerate goes through: builtins._enumerate is not reached by an
    # accepted program (enumerate is iterable only; ops.iterate takes it), so a plant there measures nothing.
    Plant("enumerate-off-by-one", "prover/access.py",
          "    count: Any = z3.IntVal(start)\n",
          "    count: Any = z3.IntVal(start + 1)\n",
          "count one entry too many in enumerate (the index the proof uses is wrong)"),
    Plant("enumerate-loop-off-by-one", "prover/access.py",
          "return [(guard, ListV([index, item], 2, \"tuple\")) for guard, index, item in positions(inner, start)]",
          "return [(guard, ListV([z3.IntVal(start + k), item], 2, \"tuple\")) for k, (guard, item) in enumerate(inner)]",
          "count hidden entries in a for loop's enumerate index"),
    Plant("drop-none-flag", "prover/values.py",
          "        return a.is_none if isinstance(a, OptV) else z3.BoolVal(False)\n",
          "        return z3.BoolVal(False)\n",
          "drop a None flag: `x is None` is never true for an Optional"),
    Plant("loop-one-round", "language/statements.py",
          "            if not unsettled:\n                break\n",
          "            unsettled = []\n            break\n",
          "stop loop re-checks after one round (the body never sees the types a later iteration hands it)"),
    Plant("keep-zero-iteration-binding", "language/statements.py",
          'if len(present) < len(vs) or any(v.state == "maybe" for v in present):',
          'if any(v.state == "maybe" for v in present):',
          "keep a binding made on only some paths (a loop that may run zero times)"),
    Plant("fold-without-overflow", "prover/ops.py",
          'ex.exception("OverflowError", node, z3.BoolVal(False), _src(node) or "int to float")',
          'ex.exception("OverflowError", node, z3.BoolVal(True), _src(node) or "int to float")',
          "fold int → float without the overflow check"),
    Plant("sets-as-sequences", "prover/values.py",
          '        if a.kind == "set":\n            return z3.And(subset(a, b, fresh_bool), subset(b, a, fresh_bool))',
          '        if False:\n            return z3.And(subset(a, b, fresh_bool), subset(b, a, fresh_bool))',
          "compare sets as sequences (order matters)"),
    Plant("object-is-hashable", "language/types.py",
          "    if isinstance(t, (ir.TList, ir.TSet, ir.TDict, ir.TObject)):\n        return True\n",
          "    if isinstance(t, (ir.TList, ir.TSet, ir.TDict)):\n        return True\n",
          "treat `object` elements (maybe a list) as hashable"),
    Plant("set-repeats-visible", "prover/values.py",
          '    if coll.kind != "set":\n        return guard\n',
          '    if True:\n        return guard\n',
          "count a set's repeated elements as members (hidden entries visible)"),
    Plant("dict-overwrites-visible", "prover/values.py",
          "    earlier = [z3.And(d.present[j], eq(d.keys[j], d.keys[k])) for j in range(k)]",
          "    earlier: list[z3.BoolRef] = []",
          "count a dict's overwritten keys as entries"),
    Plant("dict-first-write-wins", "prover/values.py",
          "        value = d.vals[k] if value is None else merge(hit, d.vals[k], value)",
          "        value = d.vals[k] if value is None else merge(hit, value, d.vals[k])",
          "look a key up as its first write instead of its last"),
    Plant("floordiv-truncates", "prover/ops.py",
          "        fix = z3.Or(y > 0, r == 0)", "        fix = z3.BoolVal(True)",
          "// and % round toward zero (C) instead of down (Python)"),
    Plant("str-of-bool-digits", "prover/ops.py",
          'return z3.If(v, z3.StringVal("True"), z3.StringVal("False"))',
          'return z3.If(v, z3.StringVal("1"), z3.StringVal("0"))',
          "str(True) is '1'"),
    Plant("int-float-eq-rounds", "prover/values.py",
          "return z3.And(z3.Not(z3.fpIsNaN(f)), z3.Not(z3.fpIsInf(f)), z3.fpToReal(f) == z3.ToReal(to_int(i)))",
          "return z3.fpEQ(f, int_to_float(i))",
          "int == float compares after rounding the int to a float (2**53 + 1 == 2.0**53)"),
    Plant("len-set-counts-repeats", "prover/values.py",
          '        if coll.kind == "set":\n            terms = [z3.If(visible(coll, k), 1, 0) for k in range(len(coll.items))]',
          '        if False:\n            terms = [z3.If(visible(coll, k), 1, 0) for k in range(len(coll.items))]',
          "len() of a set counts repeated elements"),
    Plant("min-is-max", "prover/builtins.py",
          'better = ops.order(ex, ">" if which == "max" else "<", it, best)',
          'better = ops.order(ex, "<" if which == "max" else ">", it, best)',
          "min and max swapped"),
    Plant("append-ignores-branch", "prover/methods.py",
          "            new = ops.append_if(cur, cond, args[1])", "            new = ops.append_if(cur, z3_true(), args[1])",
          "an append under a branch happens on every path"),
    Plant("interp-set-order-reversed", "interp/values.py",
          "    def __iter__(self) -> Iterator[Any]:\n        return iter(list(self._items))",
          "    def __iter__(self) -> Iterator[Any]:\n        return iter(list(reversed(self._items)))",
          "the interpreter iterates sets in reverse insertion order"),
    Plant("interp-nan-identity", "interp/values.py", "    return bool(a == b)\n", "    return a is b or bool(a == b)\n",
          "the interpreter finds a NaN by identity, as CPython's containers do"),
    Plant("bool-and-is-int", "prover/ops.py",
          '        return {"&": z3.And, "|": z3.Or, "^": z3.Xor}[op](a, b)',
          '        return z3.If({"&": z3.And, "|": z3.Or, "^": z3.Xor}[op](a, b), z3.IntVal(1), z3.IntVal(0))',
          "bool & bool is an int (str() gives '1')"),
    Plant("negative-index-from-start", "prover/access.py", "    norm = z3.If(i < 0, i + n, i)\n    if is_str(coll):",
          "    norm = z3.If(i < 0, -i - 1, i)\n    if is_str(coll):", "xs[-1] reads from the start"),
]


@dataclass
class Row:
    plant: Plant
    status: str  # caught | missed | anchor gone | crash | error
    by: str = ""
    seconds: float = 0.0
    programs: int = 0


def scratch(tmp: Path) -> Path:
    dest = tmp / "src" / "clauz3"
    shutil.copytree(SRC, dest, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return tmp / "src"


def apply(plant: Plant, root: Path) -> str | None:
    """Patch the scratch copy; the reason when the anchor is gone or ambiguous."""
    path = root / "clauz3" / plant.file
    if not path.exists():
        return f"{plant.file} does not exist"
    text = path.read_text()
    n = text.count(plant.anchor)
    if n != 1:
        return f"anchor found {n} times in src/clauz3/{plant.file} (the code changed: update the plant)"
    path.write_text(text.replace(plant.anchor, plant.replacement))
    return None


def run_check(pythonpath: Path, args: argparse.Namespace, out_dir: Path, name: str) -> tuple[dict[str, object], str]:
    env = {**os.environ, "PYTHONPATH": str(pythonpath), "PYTHONHASHSEED": "0", "CLAUZ3_PROOF_CACHE": "0"}
    cmd = [sys.executable, str(GEN_CHECK), "--programs", str(args.programs), "--runs", str(args.runs), "--seed",
           str(args.seed), "--engine", "random"]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=REPO, timeout=args.timeout,
                              check=False)
    except subprocess.TimeoutExpired:
        return {"error": f"no summary within {args.timeout:.0f} s"}, ""
    (out_dir / f"{name}.out").write_text(proc.stdout + proc.stderr)
    lines = proc.stdout.strip().splitlines()
    try:
        return json.loads(lines[-1]), proc.stdout
    except (IndexError, ValueError):
        tail = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        return {"error": tail}, proc.stdout


def first_violation(stdout: str) -> str:
    lines = stdout.splitlines()
    for k, line in enumerate(lines):
        if line.startswith("--- violation"):
            head = line[len("--- violation "):][:90]
            rest = lines[k + 1:k + 200]
            start = next((j for j, x in enumerate(rest) if x.startswith("def main(")), len(rest))
            body = [x.strip() for x in rest[start + 1:] if x.startswith("    ")]  # the target's body
            return f"{head} | {' ; '.join(body[:3])[:110]}"
    return ""


def violation_kind(stdout: str) -> str:
    """The kind of the first violation gen_check printed (``--- violation (KIND, run N): …``)."""
    for line in stdout.splitlines():
        if line.startswith("--- violation ("):
            return line[len("--- violation ("):].split(",", 1)[0]
    return ""


def judge(summary: dict[str, object], stdout: str) -> tuple[str, str]:
    """(status, by which program or why) of one run of the check: ``error`` without a summary (the check
    itself crashed, e.g. the generator or checker raised), ``crash`` when the violation it reports is a
    crash of the code under test, ``caught`` for any other violation, else ``missed``."""
    if "error" in summary:
        return "error", str(summary["error"])[:200]
    if int(summary.get("violations", 0)) <= 0:  # type: ignore[call-overload]  # gen_check writes an int
        return "missed", ""
    kind = violation_kind(stdout)
    if not kind:
        return "error", "the summary counts a violation but none was printed"
    if kind in CRASH_KINDS:
        return "crash", f"{kind}: {first_violation(stdout)}"[:200]
    return "caught", first_violation(stdout)


def check_plant(plant: Plant | None, args: argparse.Namespace, out_dir: Path) -> Row:
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="clauz3-plant-") as tmp:
        root = scratch(Path(tmp))
        if plant is not None:
            problem = apply(plant, root)
            if problem:
                return Row(plant, "anchor gone", problem)
        name = plant.name if plant else "baseline"
        summary, stdout = run_check(root, args, out_dir, name)
    fake = plant or Plant("baseline", "", "", "", "no plant")
    status, by = judge(summary, stdout)
    return Row(fake, status, by, time.monotonic() - started,
               int(summary.get("generated", 0)))  # type: ignore[call-overload]  # gen_check writes an int


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--programs", type=int, default=200)
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=1800)
    ap.add_argument("--only", action="append", default=[], metavar="NAME")
    ap.add_argument("--list", action="store_true", help="list the plants and check their anchors, run nothing")
    ap.add_argument("--keep", metavar="DIR", help="keep each run's output here")
    args = ap.parse_args(argv)
    plants = [p for p in PLANTS if not args.only or p.name in args.only]
    if args.only and len(plants) != len(args.only):
        print(f"error: no plant named {sorted(set(args.only) - {p.name for p in PLANTS})}", file=sys.stderr)
        return 2
    if args.list:
        gone = 0
        for p in plants:
            text = (SRC / p.file).read_text() if (SRC / p.file).exists() else ""
            ok = text.count(p.anchor) == 1
            gone += not ok
            print(f"{p.name:30} {'ok' if ok else 'ANCHOR GONE'} {p.file}: {p.what}")
        return 2 if gone else 0
    out_dir = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="clauz3-guard-power-"))
    out_dir.mkdir(parents=True, exist_ok=True)
    base = check_plant(None, args, out_dir)
    print(f"baseline (no plant): {base.status} in {base.seconds:.0f} s {base.by}", flush=True)
    if base.status != "missed":
        print("error: the unplanted copy does not run clean, so the guard's power cannot be measured "
              f"(see {out_dir}/baseline.out)", file=sys.stderr)
        return 2
    with ThreadPoolExecutor(max_workers=max(args.jobs, 1)) as pool:
        rows = list(pool.map(lambda p: check_plant(p, args, out_dir), plants))
    width = max(len(p.name) for p in plants)
    print(f"\n{'plant':{width}}  caught  seconds  by which program")
    for r in rows:
        print(f"{r.plant.name:{width}}  {r.status:6}  {r.seconds:7.0f}  {r.by or r.plant.what}")
    applied = [r for r in rows if r.status in ("caught", "missed")]
    caught = sum(r.status == "caught" for r in applied)
    share = caught / len(applied) if applied else 0.0
    print(f"\n{caught} of {len(applied)} plants caught ({share:.0%}); threshold {THRESHOLD:.0%}; outputs in {out_dir}")
    if any(r.status in ("anchor gone", "crash", "error") for r in rows):
        for r in rows:
            if r.status in ("anchor gone", "crash", "error"):
                print(f"error: plant {r.plant.name}: {r.by}", file=sys.stderr)
        return 2
    return 0 if share >= THRESHOLD else 1


if __name__ == "__main__":
    raise SystemExit(main())
