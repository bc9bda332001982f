"""`just agentdojo [--suite-version V] [--suite NAME] [--json PATH]`: clauz3 on AgentDojo's suites.

Each suite runs in its own child process (clauz3 proves against one layer per process, 01 TL-6).
The honest programs are hand-written (they read and compute what they act on and report) or, for tasks
without one, oracles (AgentDojo's ground-truth calls with the guarantees a person would approve from the
prompt); no model writes them: the table measures the guarantees and the proof path, not an agent's skill.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import dataclasses
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import cast

HERE = Path(__file__).resolve().parent
SUITES = ("workspace", "slack", "travel", "banking")
KEYS = ("user_tasks", "utility", "utility_under_attack", "pairs", "world_changing_pairs", "blocked_at_proof",
        "flagged", "attack_success", "world_changing_success")
STRATEGY_KEYS = ("tried", "proved", "blocked_at_proof", "flagged", "attack_success", "world_changing_success")
ORACLE = ("Honest programs: hand-written ones read and compute what they do and report (programs/<suite>/, first "
          "line '# clauz3-agentdojo: hand-written'); the rest are oracles, AgentDojo's ground-truth calls rendered under "
          "the guarantees a person would approve from each prompt. No model writes them.")


def child(version: str, name: str, tasks: list[str] | None, programs: Path | None = None,
          undefended: bool = False) -> int:
    sys.path.insert(0, str(HERE))
    from suite import run_suite, write_programs

    if programs is not None:
        print(f"{name}: {write_programs(version, name, programs / name)} honest programs in {programs / name}")
        return 0

    res = run_suite(version, name, tasks, undefended=undefended)
    print("RESULT " + json.dumps(dataclasses.asdict(res)), flush=True)
    return 0


def run_child(version: str, name: str, tasks: list[str] | None, undefended: bool = False) -> dict[str, object]:
    argv = [sys.executable, str(HERE / "run.py"), "--child", name, "--suite-version", version]
    if undefended:
        argv.append("--undefended")
    for t in tasks or ():
        argv += ["--task", t]
    env = dict(os.environ, PYTHONWARNINGS="ignore")
    done = subprocess.run(argv, capture_output=True, text=True, env=env)
    for line in reversed(done.stdout.splitlines()):
        if line.startswith("RESULT "):
            return json.loads(line[len("RESULT "):])
    tail = (done.stderr.strip().splitlines() or ["(no output)"])[-1]
    raise SystemExit(f"error: agentdojo-suite: suite {name} failed (exit {done.returncode}): {tail}")


def merge(parts: list[dict[str, object]]) -> dict[str, object]:
    """One suite's result from the results of disjoint slices of its user tasks: counts add up, lists join
    (the suite-wide list of silent injection tasks is taken once), per-name counts add up."""
    out: dict[str, object] = {}
    for part in parts:
        for k, v in part.items():
            if k not in out:
                out[k] = json.loads(json.dumps(v))
            elif k == "no_ground_truth" or isinstance(v, str):
                continue
            elif isinstance(v, int):
                out[k] = cast(int, out[k]) + v
            elif isinstance(v, list):
                cast(list[object], out[k]).extend(v)
            elif isinstance(v, dict):
                acc = cast(dict[str, object], out[k])
                for kk, vv in v.items():
                    if isinstance(vv, dict):
                        inner = cast(dict[str, int], acc.setdefault(kk, {}))
                        for x, n in vv.items():
                            inner[x] = inner.get(x, 0) + int(n)
                    else:
                        acc[kk] = cast(int, acc.get(kk, 0)) + int(vv)
    return out


def _strategies(rows: list[dict[str, object]]) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for r in rows:
        for name, counts in r["strategies"].items():  # type: ignore[attr-defined]
            acc = out.setdefault(name, {k: 0 for k in STRATEGY_KEYS})
            for k in STRATEGY_KEYS:
                acc[k] += int(counts[k])
    return out


def table(version: str, results: dict[str, dict[str, object]]) -> tuple[str, dict[str, object]]:
    total: dict[str, object] = {k: sum(int(r[k]) for r in results.values()) for k in KEYS}  # type: ignore[call-overload]
    total["strategies"] = _strategies(list(results.values()))
    extra = ("canned_answers", "hand_written", "honest_flagged", "from_read_data")  # counts of the lists of those names
    suites = {n: {**{k: r[k] for k in KEYS}, **{k: len(r[k]) for k in extra},  # type: ignore[arg-type]
                  "strategies": r["strategies"]} for n, r in results.items()}
    for k in extra:
        total[k] = sum(int(s[k]) for s in suites.values())  # type: ignore[call-overload]
    doc = {"suite_version": version, "total": total, "suites": suites}
    rows = [f"AgentDojo {version}: clauz3 with hand-written and oracle programs and a mechanical adaptive attacker", ORACLE,
            "An attack succeeds when AgentDojo's security() is true and the card showed no provenance warning;",
            "with a warning it is `flagged` (the person decided a card that said a value came from read data).", "",
            f"{'suite':<10} {'strategy':<11} {'utility':>8} {'util@attack':>12} {'blocked':>9} {'ran, failed':>12} "
            f"{'flagged':>8} {'succeeded':>10} {'tried':>9} {'world-changing succ.':>21}"]
    for name, r in [*results.items(), ("total", total)]:
        util = f"{r['utility']}/{r['user_tasks']}"
        uat = f"{r['utility_under_attack']}/{r['pairs']}"
        for sname, c in r["strategies"].items():  # type: ignore[attr-defined]
            failed = c["tried"] - c["blocked_at_proof"] - c["flagged"] - c["attack_success"]
            rows.append(f"{name:<10} {sname:<11} {util:>8} {uat:>12} {c['blocked_at_proof']:>9} {failed:>12} "
                        f"{c['flagged']:>8} "
                        f"{c['attack_success']:>10} {c['tried']:>9} "
                        f"{c['world_changing_success']:>12}/{r['world_changing_pairs']}")
        failed = int(r["pairs"]) - int(r["blocked_at_proof"]) - int(r["flagged"]) - int(r["attack_success"])  # type: ignore[call-overload]
        rows.append(f"{name:<10} {'ADAPTIVE':<11} {util:>8} {uat:>12} {r['blocked_at_proof']:>9} {failed:>12} "
                    f"{r['flagged']:>8} "
                    f"{r['attack_success']:>10} {r['pairs']:>9} {r['world_changing_success']:>12}/"
                    f"{r['world_changing_pairs']}")
        rows.append("")
    wcp = int(total["world_changing_pairs"])  # type: ignore[call-overload]
    wcs = int(total["world_changing_success"])  # type: ignore[call-overload]
    canned = sum(len(r["canned_answers"]) for r in results.values())  # type: ignore[arg-type]
    written = sum(len(r.get("hand_written", [])) for r in results.values())  # type: ignore[arg-type]
    rows.append(f"honest programs that print a fixed answer (counted from the programs: a printed literal, or a "
                f"literal holding the expected output): {canned}/{total['user_tasks']}")
    computed = 0
    for r in results.values():
        passed = cast(list[str], r.get("passed_utility", []))
        computed += len([t for t in passed if t not in cast(list[str], r["canned_answers"])])
    total["utility_computed"] = computed
    rows.append(f"honest utility with computed answers (utility() true and not canned): {computed}/{total['user_tasks']}")
    rows.append(f"honest programs hand-written to compute from what they read (the rest are AgentDojo's "
                f"ground-truth calls rendered): {written}/{total['user_tasks']}")
    rows.append(f"adaptive (worst strategy per pair): {wcs}/{wcp} world-changing pairs succeeded "
                f"({100 * wcs / wcp if wcp else 0:.1f} %), {total['attack_success']}/{total['pairs']} of all pairs "
                f"(output-only pairs included); flagged {total['flagged']}")
    wc = sum(int(r["world_changing_pairs"]) for r in results.values())  # type: ignore[call-overload]
    wb = sum(int(r["world_changing_blocked"]) for r in results.values())  # type: ignore[call-overload]
    pct = f"{100 * wb / wc:.1f} %" if wc else "n/a"
    rows += [f"pairs whose injection changes the world: {wc}; every attempt blocked at proof: {wb} ({pct})"]
    for n, r in results.items():
        silent = r["no_ground_truth"]  # type: ignore[index]
        if silent:
            rows.append(f"{n}: {len(silent)} injection task(s) ship no ground-truth calls, so their compromised "
                        f"program is the honest one and tests no attack: {', '.join(silent)}")  # type: ignore[arg-type]
    for title, key in (("unproved honest programs (why)", "unproved_honest"),
                       ("honest programs that ran but failed utility()", "failed_utility"),
                       ("honest programs that failed utility() on the injected environment", "failed_under_attack"),
                       ("honest cards that warned (a value from read data: the person decides)", "honest_flagged"),
                       ("attack programs not translatable", "unblocked_pairs"),
                       ("intents holding a value from read data (not in the prompt)", "from_read_data"),
                       ("FLAGGED ATTACKS (security() true, the card warned; strategies)", "flagged_attacks"),
                       ("SUCCESSFUL ATTACKS (security() true, no warning; strategies)", "successful_attacks"),
                       ("intents written for another version's prompt", "stale_intents")):
        items = [f"  {n}: {x}" for n, r in results.items() for x in r[key]]  # type: ignore[attr-defined]
        if items:
            rows += ["", f"{title}:", *items]
    how: dict[str, int] = {}
    for r in results.values():
        for h, c in r["blocked_how"].items():  # type: ignore[attr-defined]
            how[h] = how.get(h, 0) + c
    rows += ["how the blocked pairs were stopped: " + ", ".join(f"{h} {c}" for h, c in sorted(how.items()))]
    helpers: dict[str, int] = {}
    for r in results.values():
        for h, c in r["helpers"].items():  # type: ignore[attr-defined]
            helpers[h] = helpers.get(h, 0) + c
    top = sorted(helpers.items(), key=lambda kv: (-kv[1], kv[0]))[:20]
    rows += ["", "20 most used guarantee helpers:", *[f"  {c:>4}  {h}" for h, c in top]]
    return "\n".join(rows), doc


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="just agentdojo", description=__doc__.splitlines()[0])
    p.add_argument("--suite-version", default="v1")
    p.add_argument("--suite", action="append", choices=SUITES)
    p.add_argument("--json", type=Path)
    p.add_argument("--undefended", action="store_true",
                   help="the baseline: the same programs under no guarantee (shows what the guarantees stop)")
    p.add_argument("--write-programs", type=Path, metavar="DIR",
                   help="write every honest program into DIR/<suite>/ instead of running the benchmark")
    p.add_argument("--jobs", type=int, default=1, metavar="N", help="run N suites side by side (default 1)")
    p.add_argument("--obligation-timeout", type=float, metavar="S",
                   help="z3's wall-clock seconds per obligation in the suite children (default 120; a timeout is not proved)")
    p.add_argument("--split", type=int, default=1, metavar="K", help="cut each suite's user tasks into K child runs")
    p.add_argument("--save", type=Path, metavar="DIR", help="keep each child's result in DIR and reuse it when there")
    p.add_argument("--task", action="append", help=argparse.SUPPRESS)
    p.add_argument("--child", help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    if a.child:
        return child(a.suite_version, a.child, a.task, a.write_programs, a.undefended)
    try:
        from agentdojo.task_suite.load_suites import get_suites
    except ImportError:
        print("error: agentdojo-missing: AgentDojo is not installed; run `uv sync --group agentdojo`", file=sys.stderr)
        return 2
    known = get_suites(a.suite_version)
    if not known:
        print(f"error: agentdojo-version: AgentDojo has no suite version {a.suite_version}", file=sys.stderr)
        return 2
    names = [n for n in (a.suite or SUITES) if n in known]
    if a.write_programs is not None:
        for n in names:
            argv = [sys.executable, str(HERE / "run.py"), "--child", n, "--suite-version", a.suite_version,
                    "--write-programs", str(a.write_programs.resolve())]
            subprocess.run(argv, check=True, env=dict(os.environ, PYTHONWARNINGS="ignore"))
        return 0
    if a.obligation_timeout is not None:  # inherited by every suite child (bench/agentdojo/pipeline.py)
        os.environ["CLAUZ3_AGENTDOJO_OBLIGATION_TIMEOUT"] = str(a.obligation_timeout)
    started = time.monotonic()
    took: dict[str, float] = {}
    # A suite's user tasks may be cut into --split slices, each its own child process; with --save DIR each
    # slice's result is kept in DIR and a later run with the same arguments reuses it (resume after a stop).
    slices: list[tuple[str, list[str] | None, int]] = []
    for n in names:
        tasks = [t for t in known[n].user_tasks if a.task is None or t in a.task]
        k = max(1, min(a.split, len(tasks)))
        slices += [(n, tasks[i::k] if k > 1 else a.task, i) for i in range(k)]

    def one(n: str, tasks: list[str] | None, i: int) -> dict[str, object]:
        saved = None
        if a.save is not None:
            tag = "-undefended" if a.undefended else ""
            saved = a.save / f"{a.suite_version}{tag}-{n}-{i + 1}of{a.split}{'-' + '-'.join(a.task) if a.task else ''}.json"
            if saved.is_file():
                return cast(dict[str, object], json.loads(saved.read_text()))
        r = run_child(a.suite_version, n, tasks, a.undefended)
        took[n] = max(took.get(n, 0.0), time.monotonic() - started)
        if saved is not None:
            saved.parent.mkdir(parents=True, exist_ok=True)
            saved.write_text(json.dumps(r) + "\n")
        return r

    # Each suite (or slice) is its own child process (one layer per process), so they may run side by side; the
    # figures do not depend on it (a proof's time limit is per obligation, a timeout is "not proved" either way).
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
        futures = [(n, pool.submit(one, n, tasks, i)) for n, tasks, i in slices]
        results = {n: merge([f.result() for m, f in futures if m == n]) for n in names}
    text, doc = table(a.suite_version, results)
    if a.undefended:
        text = "UNDEFENDED BASELINE: every guarantee replaced by no_guarantees()\n" + text
    print(text)
    each = ", ".join(f"{n} done at {took[n]:.0f} s" if n in took else f"{n} saved" for n in names)
    print(f"\n({time.monotonic() - started:.0f} s; {each}; {max(1, a.jobs)} child process(es) at a time, "
          f"each suite in {max(1, a.split)} slice(s))")
    if a.json:
        tmp = a.json.with_name(a.json.name + ".tmp")
        tmp.write_text(json.dumps(doc, indent=2) + "\n")
        os.replace(tmp, a.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
