"""Every example case checks without refusal unless it expects one; IR is PYTHONHASHSEED-independent.

Each example has its own layer, so each runs in its own process (TL-6)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted(p for p in (ROOT / "examples").glob("*") if (p / "cases").is_dir() and (p / "tools").is_dir())

SCRIPT = r"""
import json, re, sys
from pathlib import Path
from clauz3.language.layer import load_layer
from clauz3.language import check_program, Refused, ir
ex = Path(sys.argv[1])
layer = load_layer(sorted(ex.glob("tools/*/trusted")) + sorted(ex.glob("tools/*/*/trusted")), [ex])
out = {}
for case in sorted(ex.glob("cases/*.py")):
    head = "\n".join(case.read_text().splitlines()[:20])
    m = re.search(r"# clauz3-expect: refused (\S+)", head)
    try:
        prog = check_program(case, layer)
        out[case.name] = ["ok", ir.ir_sha256(prog), m.group(1) if m else None]
    except Refused as exc:
        out[case.name] = ["refused", exc.codes, m.group(1) if m else None]
print(json.dumps(out))
"""


def run(example: Path, seed: str) -> dict[str, list[object]]:
    env = dict(os.environ, PYTHONHASHSEED=seed)
    res = subprocess.run([sys.executable, "-c", SCRIPT, str(example)], capture_output=True, text=True, env=env,
                         cwd=ROOT, timeout=120)
    assert res.returncode == 0, res.stderr[-2000:]
    return json.loads(res.stdout)


@pytest.mark.parametrize("example", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_example_cases(example: Path) -> None:
    first = run(example, "1")
    assert first
    for name, (status, detail, expect) in first.items():
        if expect:
            assert status == "refused" and expect in detail, (name, detail)  # type: ignore[operator]
        else:
            assert status == "ok", (name, detail)
    if example.name in ("email", "trading"):
        assert run(example, "2") == first
