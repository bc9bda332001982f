"""Issue 18: the prover never crashes and never answers after an internal error.

An exception inside the checker or prover (one that is not the encoding's own "cannot represent this")
is the verdict ``refused`` with code ``internal-error``: exit 2, one line on stderr, no traceback, no
exception text (it names internals), nothing cached, no obligation reported proved. The failure is
planted from the test (a wrapper script patches one prover function), never by a switch in src/.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GEN = ROOT / "tests" / "soundness" / "gen_layers"
TRUSTED = GEN / "tools" / "gen" / "trusted"

PROGRAM = """import clauz3
from tools.gen.trusted import contracts as fam
from tools.gen.trusted.effects import pay


@clauz3.guarantee(fam.max_pay(5))
def main() -> None:
    pay(1 + 2)
"""

# Runs `clauz3 prove` with one prover (or checker) function replaced by one that raises.
PLANT = """
import sys
import importlib

module, name, kind = sys.argv[1], sys.argv[2], sys.argv[3]
mod = importlib.import_module(module)

def boom(*args, **kwargs):
    raise {"runtime": RuntimeError, "memory": MemoryError, "recursion": RecursionError,
           "key": KeyError}[kind]("secret internals of the prover")

setattr(mod, name, boom)
from clauz3.cli import main
sys.exit(main(sys.argv[4:]))
"""


@pytest.fixture()
def env(tmp_path: Path) -> dict[str, str]:
    return dict(os.environ, CLAUZ3_HOME=str(tmp_path / "h"), CLAUZ3_CACHE=str(tmp_path / "c"))


def prove(tmp_path: Path, env: dict[str, str], plant: tuple[str, str, str] | None, *extra: str
          ) -> subprocess.CompletedProcess[str]:
    program = tmp_path / "p.py"
    program.write_text(PROGRAM)
    args = ["prove", *extra, "--trusted-root", str(TRUSTED), "--import-root", str(GEN), str(program)]
    head = [sys.executable, "-c", PLANT, *plant] if plant else [sys.executable, "-m", "clauz3"]
    return subprocess.run([*head, *args], capture_output=True, text=True, env=env, cwd=ROOT, timeout=600,
                          check=False)


@pytest.mark.parametrize("plant", [
    ("clauz3.prover.ops", "_binop", "runtime"),  # symbolic execution
    ("clauz3.prover.ops", "_binop", "memory"),
    ("clauz3.prover.api", "encode", "key"),  # encoding a guarantee
    ("clauz3.language.checker", "_guarantees", "runtime"),  # the checker
])
def test_an_exception_inside_the_prover_is_refused_as_an_internal_error(
        plant: tuple[str, str, str], tmp_path: Path, env: dict[str, str]) -> None:
    proc = prove(tmp_path, env, plant, "--no-cache")
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "internal-error" in lines[0] and lines[0].startswith("error: "), proc.stderr
    assert "Traceback" not in proc.stderr and "secret internals" not in proc.stderr + proc.stdout
    assert "proved" not in proc.stdout, proc.stdout


def test_the_json_entry_is_refused_and_nothing_is_cached(tmp_path: Path, env: dict[str, str]) -> None:
    plant = ("clauz3.prover.ops", "_binop", "runtime")
    proc = prove(tmp_path, env, plant, "--json")
    assert proc.returncode == 2, proc.stderr
    entry = json.loads(proc.stdout)["entries"][0]
    assert entry["status"] == "refused" and entry["obligations"] == [], entry
    assert [d["code"] for d in entry["diagnostics"]] == ["internal-error"], entry
    # The same program without the plant proves: the failure was not cached as a verdict.
    clean = prove(tmp_path, env, None, "--json")
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert json.loads(clean.stdout)["entries"][0]["status"] == "proved"


def test_the_prover_api_reports_no_verdict_after_an_internal_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """In process (no CLI): ``prove()`` returns status ``error``, not proved nor not proved."""
    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "from clauz3.language import check_source\n"
        "from clauz3.language.layer import load_layer\n"
        "import clauz3.prover.ops as ops\n"
        "from clauz3.prover.api import prove\n"
        f"layer = load_layer([Path({str(TRUSTED)!r})], [Path({str(GEN)!r})])\n"
        f"program = check_source({PROGRAM!r}.encode(), 'p.py', layer)\n"
        "def boom(*a, **k):\n"
        "    raise ValueError('x')\n"
        "ops._binop = boom\n"
        "r = prove(program)\n"
        "print(r.status, r.internal_error, [o.conclusion for o in r.obligations])\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=600,
                          check=False)
    assert proc.returncode == 0, proc.stderr
    status, what, conclusions = proc.stdout.split(" ", 2)
    assert status == "error" and what.startswith("ValueError"), proc.stdout
    assert "proved" not in conclusions, proc.stdout
