"""Run as ``python -P -m tests.bridge.warm_probe`` with a JSON job on stdin: the same programs through a warm
and a cold worker (01 WARM-2 "outputs are identical either way"). A subprocess, because the warm prover
makes its owner a child subreaper."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

from clauz3.bridge.warm import WarmProver
from clauz3.runs.supervisor import RunConfig, Supervisor

VOLATILE = ("request_id", "run_id", "started_at", "updated_at", "ended_at", "elapsed_seconds")


def normal(result: Any) -> dict[str, Any]:
    rec = {k: v for k, v in result.record.to_json().items() if k not in VOLATILE}
    return {"record": rec, "stdout": result.stdout, "stderr": result.stderr, "proof_text": result.proof_text,
            "effects": result.effects, "diagnostics": result.diagnostics}


def main() -> int:
    job = json.loads(sys.stdin.read())
    project = Path(job["project"])
    trusted, imports = job["trusted_roots"], job["import_roots"]
    warm = WarmProver.start(project=project, trusted_roots=trusted, import_roots=imports, wait=True)
    assert warm is not None and warm.alive, "warm prover did not start"
    out: dict[str, Any] = {"pairs": []}
    # The proof cache is off here, and only here in tests/bridge: each program is proved twice (warm, then
    # cold) and the probe measures and compares those two proofs; with the cache on the second would be a
    # cache hit, so neither the cold timing nor "the warm process was used" would mean anything.
    for i, source in enumerate(job["programs"]):
        def config(tag: str, source: str = source, i: int = i) -> RunConfig:
            return RunConfig(source=source, project=project, trusted_roots=trusted, import_roots=imports,
                             service_url=job["url"], submission_token=job["token"], verify_key=job["key"],
                             data_dir=Path(job["data"]), request_id=f"req_{tag}_{i:04d}_x", use_cache=False)

        before = warm.forks
        t0 = time.monotonic()
        hot = Supervisor(config("warm"), spawn=warm.spawn).run()
        t1 = time.monotonic()
        cold = Supervisor(config("cold")).run()
        t2 = time.monotonic()
        out["pairs"].append({"warm": normal(hot), "cold": normal(cold), "warm_used": warm.forks == before + 1,
                             "warm_seconds": t1 - t0, "cold_seconds": t2 - t1})
    # WARM-2: a changed layer replaces the warm process; that run is cold.
    marker = Path(trusted[0]) / "effects.py"
    marker.write_text(marker.read_text() + "\n# changed\n")
    before = warm.forks
    changed = Supervisor(RunConfig(source=job["programs"][0], project=project, trusted_roots=trusted,
                                   import_roots=imports, service_url=job["url"], submission_token=job["token"],
                                   verify_key=job["key"], data_dir=Path(job["data"]), request_id="req_changed_01",
                                   use_cache=False), spawn=warm.spawn).run()
    out["changed_phase"] = changed.record.phase
    out["changed_used_warm"] = warm.forks != before
    out["replaced"] = warm.wait_ready(60) and warm.starts == 2
    warm.stop()
    out["stopped"] = not warm.alive
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
