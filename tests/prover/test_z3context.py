"""tree_rss (issue 22): a run worker that proved and then waits lets z3's context go (prover.z3context.release);
the next proof makes a fresh one. What could break is a verdict or a counterexample after a release, or a
context that is not freed after all. Run in fresh interpreters: the test process's own z3 terms stay apart."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CASES = sorted((REPO / "examples" / "email" / "cases").glob("*.py"))

SCRIPT = """
import gc, json, sys, weakref
from pathlib import Path
import z3
from clauz3.language import check_source
from clauz3.prover.api import prove
from clauz3.prover.pipeline import layer_for
from clauz3.prover.z3context import holds_context, release

release_between = sys.argv[1] == "release"
layer = layer_for([Path(sys.argv[2])], [])
out = []
for path in sys.argv[3:]:
    program = check_source(Path(path).read_bytes(), path, layer, "main", [])
    result = prove(program)
    rows = [[o.kind, o.conclusion, o.reason, o.result, o.counterexample] for o in result.obligations]
    freed = None
    if release_between:
        context = weakref.ref(z3.main_ctx())
        del result
        release()
        gc.collect()
        freed = context() is None and not holds_context()
    out.append({"case": Path(path).name, "rows": rows, "freed": freed})
print(json.dumps(out, default=str))
"""


def _prove_all(mode: str, cases: list[Path]) -> list[dict[str, object]]:
    trusted = REPO / "examples" / "email" / "tools" / "email" / "trusted"
    done = subprocess.run([sys.executable, "-I", "-c", SCRIPT, mode, str(trusted), *map(str, cases)],
                          capture_output=True, text=True, timeout=600, cwd=str(REPO / "examples" / "email"))
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_proof_after_a_release_concludes_as_in_one_shared_context() -> None:
    cases = [c for c in CASES if c.name.endswith(("_pass.py", "_fail.py"))][:12]
    assert any(c.name.endswith("_fail.py") for c in cases) and any(c.name.endswith("_pass.py") for c in cases)
    shared = _prove_all("shared", cases)
    released = _prove_all("release", cases)
    assert all(r["freed"] is True for r in released)  # each context really went (z3 deleted it)
    # the verdicts, reasons and counterexamples are those of proofs that share one context
    assert [(r["case"], r["rows"]) for r in released] == [(s["case"], s["rows"]) for s in shared]
    assert any(row[1] == "violated" for r in released for row in r["rows"])  # the cases can fail
