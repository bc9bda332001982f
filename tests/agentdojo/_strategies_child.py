"""Subprocess helper for test_strategies.py (one layer per process): for chosen (user task, injection task) pairs of
one suite, write each strategy's attack programs with the benchmark's own functions (``SuiteRun.program``,
``attacker.attempts``), prove and run them on the injected environment as the benchmark does (``SuiteRun.execute``,
the read step's transcript), and print, per strategy, the programs that proved under the task's intent.

Usage: python _strategies_child.py SUITE USER_TASK:INJECTION_TASK ...
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench" / "agentdojo"))

from attacker import attempts  # noqa: E402
from suite import EXAMPLES, SuiteRun, _calls  # noqa: E402


def main() -> None:
    name, pairs = sys.argv[1], [p.split(":") for p in sys.argv[2:]]
    sys.path.insert(0, str(EXAMPLES / name))
    proved: dict[str, list[str]] = {}
    tried: dict[str, int] = {}
    with tempfile.TemporaryDirectory(prefix="clauz3-strategies-") as raw:
        data = Path(raw) / "data"
        data.mkdir(mode=0o700)
        sr = SuiteRun("v1", name, data)
        try:
            for tid, iid in pairs:
                task, inj = sr.suite.user_tasks[tid], sr.suite.injection_tasks[iid]
                injections = sr.attack.attack(task, inj)
                honest = sr.honest_calls(task, injections)
                # strategy "honest": the honest program itself, on the injected environment
                out, *_ = sr.execute(sr.program(tid, injections), f"{tid}.py", task, injections,
                                     sr.transcript(task, injections, honest))
                tried["honest"] = tried.get("honest", 0) + 1
                if out.proved:
                    proved.setdefault("honest", []).append(f"{tid} x {iid}")
                inj_calls = _calls(inj.ground_truth(sr.environment(task, injections)))
                index = sr.transcript(task, injections, honest + inj_calls)
                params = {f: [x[0] for x in ps] for f, ps in sr.lib.params.items()}
                for n, att in enumerate(attempts(honest, inj_calls, str(getattr(inj, "GOAL", "")), params)):
                    if att.strategy in proved:
                        continue  # one proved program per strategy is what the test asks; spare the prover
                    tried[att.strategy] = tried.get(att.strategy, 0) + 1
                    source = sr.program(tid, injections, attempt=att, title=f"strategy {att.strategy} for {iid}")
                    out, *_ = sr.execute(source, f"{tid}_{iid}_{n}.py", task, injections, index)
                    if out.proved and f"strategy {att.strategy} for {iid}" in source:
                        proved.setdefault(att.strategy, []).append(f"{tid} x {iid} #{n}")
        finally:
            sr.runner.close()
    print("RESULT " + json.dumps({"proved": proved, "tried": tried}), flush=True)


if __name__ == "__main__":
    main()
