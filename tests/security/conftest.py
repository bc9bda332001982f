"""The security acceptance tests reuse the in-process workspace harness of tests/sessions and tests/proc_tree.py."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[1]
for _path in (TESTS, TESTS / "sessions"):  # tests/ for proc_tree, tests/sessions for sessions_harness
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))


# The issue 11 attack tests (test_content_binding, test_clean_env, test_trust_anchors): a project holding
# the run tests' slow library and a private data dir. A test module's own fixture of the name wins.
SLOW_TOOLS = TESTS / "runs" / "fixtures" / "slowlib" / "tools" / "slow"


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
