"""Red-team driver (issue 10 §6): prove hostile programs, run every proved one, judge the real calls.

``python redteam_check.py --layer gen|hostile --runs R FILE...`` (one layer per process, 01 TL-6).
Reuses the generative check's lab (tests/soundness/gen_check.py): the real checker and prover, then R
runs in the real interpreter with sampled trusted results that respect the postconditions, under the
monitor and with it off (the real calls judged in plain Python). Prints one JSON line per program
(name, verdict, violation) and a JSON summary last.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import gen_check  # noqa: E402

HOSTILE_ROOT = HERE / "hostile"
PROVENANCE = frozenset({"to_contacts"})  # judged by the monitor on origins, by the plain judges on values


def hostile_holds(helper: str, args: Mapping[str, Any], calls: list[tuple[str, dict[str, Any]]]) -> bool:
    """The hostile layer's contracts evaluated directly on the calls its effects received."""
    of = {k: [a for n, a in calls if n == k] for k in ("spend", "post", "arm", "disarm", "store")}
    armed: dict[str, bool] = {}
    level: dict[str, int] = {}
    for name, a in calls:
        if name in ("arm", "disarm"):
            armed[a["zone"]] = name == "arm"
        if name == "store":
            level[a["tank"]] = a["litres"]
    if helper == "spend_under":
        return sum(a["cents"] for a in of["spend"]) < args["cap"]
    if helper == "spends_at_most":
        return len(of["spend"]) <= args["n"]
    if helper == "no_post":
        return all(a["text"] != args["text"] for a in of["post"])
    if helper == "posts_short":
        return all(len(a["text"]) <= args["n"] for a in of["post"])
    if helper == "armed_at_end":
        return armed.get(args["zone"], False) is True
    if helper == "measured_at_most":
        total = 0.0
        for a in [a for n, a in calls if n == "measure"]:
            total = total + a["x"]  # left to right, as the interpreter's own sum
        return total <= args["limit"]
    if helper == "distinct_queries":
        wheres = [a["where"] for n, a in calls if n == "query"]
        return all(wheres[i] != wheres[j] for i in range(len(wheres)) for j in range(i))
    if helper == "tank_is":
        return level.get(args["tank"], 0) == args["litres"]
    if helper == "tank_not_empty":
        return level.get(args["tank"], 0) != 0
    raise KeyError(f"no judge for {helper}")


def example_holds(helper: str, args: Mapping[str, Any], calls: list[tuple[str, dict[str, Any]]]) -> bool:
    """Contracts of the example libraries (bank, email, trading, cloud), judged in plain Python."""
    of: dict[str, list[dict[str, Any]]] = {}
    for name, a in calls:
        of.setdefault(name, []).append(a)

    def get(name: str) -> list[dict[str, Any]]:
        return of.get(name, [])

    judges = {
        "max_spend": lambda: sum(a["amount"] for a in get("withdraw")) <= args["limit"],
        "only_account": lambda: all(a["account"] == args["account"] for a in get("withdraw") + get("balance")),
        "at_most": lambda: len(get("send_email")) <= args["count"],
        "only": lambda: all(a["addr"] in args["addresses"] for a in get("send_email")),
        "unique_recipients": lambda: len({a["addr"] for a in get("send_email")}) == len(get("send_email")),
        "recipient_at_most": lambda: sum(a["addr"] == args["addr"] for a in get("send_email")) <= args["count"],
        "content_length_at_most": lambda: all(len(a["msg"]) <= args["max_chars"] for a in get("send_email")),
        "approvals_only_where": lambda: all(a["where"] == args["filter_dict"] for a in get("list_approvals")),
        "approvals_only_desk": lambda: all(a["desk"] == args["desk"] for a in get("list_approvals")),
        "orders_at_most": lambda: len(get("sell_shares")) <= args["n"],
        "only_regions": lambda: all(a["region"] in args["allowed"] for a in get("start_instance") + get("list_instances")),
        "only_sizes": lambda: all(a["size"] in args["allowed"] for a in get("start_instance")),
        "max_instance_hours": lambda: sum(a["hours"] for a in get("start_instance")) <= args["total"],
        "at_most_instances": lambda: len(get("start_instance")) <= args["n"],
        "no_deletes": lambda: not get("delete_bucket"),
        "none": lambda: not get("send_email") and not get("sell_shares"),
    }
    return judges[helper]()


def monitored_outcome(lab: gen_check.Lab, program: Any, runs: int = 1) -> str:
    """Runs under the monitor with all the program's guarantees, proved or not, each against a run
    without the monitor on the same trusted results judged in plain Python: the monitor must stop a run
    exactly when the real calls break a guarantee. The first run's outcome, or the disagreement."""
    import io
    import random

    from clauz3.difftest.run import Incomplete
    from clauz3.difftest.sample import program_literals
    from clauz3.interp import execute

    literals = program_literals(program)
    first = ""
    for i in range(runs):
        outcome: dict[bool, Any] = {}
        calls: list[tuple[str, dict[str, Any]]] = []
        for monitored in (True, False):
            calls = []
            stubs = lab.stubs(program, random.Random(i), calls, literals)
            try:
                outcome[monitored] = execute(
                    program, stubs, guarantees_to_monitor=list(program.guarantees) if monitored else (),
                    stdout=io.StringIO(), step_budget=gen_check.STEP_BUDGET, write_report=False, arguments={})
            except Incomplete:
                return "incomplete"
        mon, plain = outcome[True], outcome[False]
        first = first or f"{mon.outcome}: {mon.error}"
        if plain.outcome != "completed":
            continue  # the run raised: its calls stop short, the judge has no finished run
        broken = [g.bound_call for g in program.guarantees
                  if not gen_check.holds(g.helper.rsplit(".", 1)[-1], dict(g.args), calls)]
        stopped = mon.outcome == "soundness_violation"
        by_origin = any(g.helper.rsplit(".", 1)[-1] in PROVENANCE for g in program.guarantees)
        # A provenance guarantee is judged here by value: the monitor may rightly stop a run whose
        # values pass (an equal literal is not the contact's address); it must never miss a break.
        if (stopped and not broken and not by_origin) or (broken and not stopped):
            return f"disagree (run {i}): monitor {mon.outcome}: {mon.error}; plain judge breaks {broken}: {calls}"
    return first


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--layer", default="gen", help="gen, hostile or example:NAME (examples/NAME)")
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--monitor-all", action="store_true",
                    help="run each checked program once under the monitor with every guarantee, proved or not")
    ap.add_argument("--conclusions", action="store_true",
                    help="also print every obligation's conclusion, and whether any ran out of time")
    ap.add_argument("files", nargs="+")
    args = ap.parse_args(argv)
    if args.layer == "hostile":
        gen_check.IMPORT_ROOT = HOSTILE_ROOT
        gen_check.TRUSTED_ROOT = HOSTILE_ROOT / "tools" / "hostile" / "trusted"
        gen_check.holds = hostile_holds  # the lab judges real calls with this layer's contracts
    elif args.layer.startswith("example:"):
        root = HERE.parents[2] / "examples" / args.layer.split(":", 1)[1]
        gen_check.IMPORT_ROOT = root
        gen_check.TRUSTED_ROOT = next((root / "tools").glob("*/trusted"))
        gen_check.holds = example_holds
    summary = {"tried": 0, "proved": 0, "violations": 0}
    with tempfile.TemporaryDirectory(prefix="clauz3-redteam-") as tmp:
        lab = gen_check.Lab(Path(tmp))
        for file in args.files:
            path = Path(file)
            source = path.read_text()
            summary["tried"] += 1
            program, proved, reason = lab.prove(source, path.stem)
            row: dict[str, Any] = {"name": path.stem, "verdict": reason, "violation": None}
            if args.conclusions and program is not None:
                from clauz3.prover.api import prove

                result = prove(program, obligation_timeout=5.0)
                row["conclusions"] = [f"{o.kind} {o.conclusion}" for o in result.obligations]
                # Ran out of time or resources (either proof) on a loaded machine: a safe "cannot prove", not a
                # verdict to compare across hash seeds.
                row["timeout"] = gen_check.out_of_time(result.obligations) or "(out of time)" in str(reason)
            if args.monitor_all and program is not None:
                row["monitored"] = monitored_outcome(lab, program, args.runs)
                print(json.dumps(row), flush=True)
                continue
            if proved:
                summary["proved"] += 1
                found = lab.run(program, proved, args.runs, path.stem, source)
                if found:
                    summary["violations"] += 1
                    row["violation"] = f"{found[0].kind}: {found[0].message}"[:800]
            print(json.dumps(row), flush=True)
    print(json.dumps(summary))
    return 1 if summary["violations"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
