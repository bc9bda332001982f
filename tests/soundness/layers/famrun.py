"""Subprocess helper (TL-6: one layer per process): prove and run adversarial programs.

Reads ``{"name": source, ...}`` as JSON on stdin; prints ``{"name": {...}}``: the checker's refusal
codes, or the proof status with each obligation's conclusion, and how the real interpreter run ended
(with the monitor on) plus its call trace.

``--compensated-sum`` first replaces ``builtins.sum`` by a compensated float sum, as CPython ≥ 3.12
computes it, so a test on 3.11 can show a result that would depend on the interpreter version.
"""

from __future__ import annotations

import builtins
import io
import json
import math
import sys
from pathlib import Path
from typing import Any

# The generative check's small test layer (payments, messages, notes, doors) serves these tests too.
GEN = Path(__file__).resolve().parents[1] / "gen_layers"


def _compensated_sum(items: Any, start: Any = 0) -> Any:
    values = list(items)
    if values and all(isinstance(v, float) for v in values) and isinstance(start, (int, float)):
        return math.fsum([float(start), *values])
    total = start
    for v in values:
        total = total + v
    return total


def main() -> None:
    if "--compensated-sum" in sys.argv:
        builtins.sum = _compensated_sum
    from clauz3.interp import execute
    from clauz3.language import Refused, check_source
    from clauz3.language.layer import load_layer
    from clauz3.prover.api import prove

    layer = load_layer([GEN / "tools" / "gen" / "trusted"], [GEN])
    programs: dict[str, str] = json.loads(sys.stdin.read())
    out: dict[str, Any] = {}
    for name, source in programs.items():
        try:
            program = check_source(source.encode(), f"{name}.py", layer, "main", [])
        except Refused as exc:
            out[name] = {"status": "refused", "codes": [d.code for d in exc.diagnostics],
                         "messages": [d.message for d in exc.diagnostics]}
            continue
        proof = prove(program)
        stdout = io.StringIO()
        run = execute(program, layer.effects, stdout=stdout, write_report=False)
        out[name] = {
            "status": proof.status,
            "obligations": [[o.kind, o.conclusion, o.subject, o.result] for o in proof.obligations],
            "outcome": run.outcome,
            "error": run.error,
            "trace": [[r["effect"].rsplit(".", 1)[-1], r.get("arguments")] for r in run.trace_json()],
            "stdout": stdout.getvalue(),
        }
    print(json.dumps(out))


if __name__ == "__main__":
    main()
