"""Issue 11 §2: what runs is bound, by content, to what was proved and approved.

Each test performs the attack on the real supervisor, worker, prover and (mock) authority; a
concurrent writer is simulated by a test-only trusted library whose import does the swap, so the
swap lands deterministically in the window between the worker's first and second look at a file.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from clauz3.approvals.mock import MockApprovalService
from clauz3.runs.supervisor import RunConfig, Supervisor

REPO = Path(__file__).resolve().parents[2]
SLOW_TOOLS = REPO / "tests" / "runs" / "fixtures" / "slowlib" / "tools" / "slow"

PROGRAM = '''
import clauz3
from tools.slow.trusted import contracts as slow
from tools.slow.trusted.effects import mark


@clauz3.guarantee(slow.marks_at_most(1))
def main() -> None:
    mark({path!r})
'''

# Written into the slow library's __init__.py: on import (the worker's layer load, which happens after
# the program was hashed and before it is parsed) it replaces the program file named in swap.json.
SWAPPER = '''"""Test-only trusted library; its import plays a concurrent writer."""
import json as _json
import os as _os

_here = _os.path.dirname(_os.path.abspath(__file__))
_plan = _os.path.join(_here, "swap.json")
if _os.path.exists(_plan):
    with open(_plan) as _fh:
        _doc = _json.load(_fh)
    with open(_doc["path"], "w") as _fh:
        _fh.write(_doc["text"])
'''


@pytest.fixture
def project(tmp_path: Path) -> Path:
    proj = tmp_path / "proj"
    shutil.copytree(SLOW_TOOLS, proj / "tools" / "slow", ignore=shutil.ignore_patterns("__pycache__"))
    return proj


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "data"
    home.mkdir(mode=0o700)
    monkeypatch.setenv("CLAUZ3_HOME", str(home))
    return home


def _config(project: Path, data: Path, svc: MockApprovalService, source: str, **kw: object) -> RunConfig:
    base: dict[str, object] = dict(
        source=source, project=project, trusted_roots=[str(project / "tools" / "slow" / "trusted")],
        import_roots=[str(project)], service_url=svc.url, submission_token=svc.token,
        verify_key=svc.verify_key.text, data_dir=data, use_cache=False,
    )
    base.update(kw)
    return RunConfig(**base)  # type: ignore[arg-type]


def test_a_program_swapped_between_hash_and_parse_never_runs_under_the_first_ones_approval(
        project: Path, data: Path, tmp_path: Path) -> None:
    approved_mark, swapped_mark = project / "approved.txt", project / "swapped.txt"  # inside the sandbox
    approved = PROGRAM.format(path=str(approved_mark))
    swapped = PROGRAM.format(path=str(swapped_mark))
    program_file = project / "main.py"
    program_file.write_text(approved, encoding="utf-8")
    (project / "tools" / "slow" / "trusted" / "__init__.py").write_text(SWAPPER, encoding="utf-8")
    (project / "tools" / "slow" / "trusted" / "swap.json").write_text(
        json.dumps({"path": str(program_file), "text": swapped}), encoding="utf-8")
    digest = hashlib.sha256(approved.encode("utf-8")).hexdigest()
    # The authority approves exactly the first program (as a person reading its card would).
    with MockApprovalService(data, project, require_program_sha256=digest) as svc:
        result = Supervisor(_config(project, data, svc, approved, source_name=str(program_file))).run()
        submitted = [r["program_sha256"] for r in svc.requests]
    assert program_file.read_text(encoding="utf-8") == swapped  # the attack really happened mid-run
    assert not swapped_mark.exists(), "the swapped program ran under the approval of the first one"
    assert submitted == [digest]
    assert result.record["phase"] == "completed", (result.record.get("reason"), result.record.get("message"))
    assert approved_mark.exists()  # what ran is exactly what was hashed, proved and approved
