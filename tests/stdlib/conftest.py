"""Real-file tests of the stdlib effect bodies: each test's tmp_path is the project root."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import clauz3
from clauz3.stdlib.runtime import clear_run_context, set_run_context

STDLIB = Path(clauz3.__file__).parent / "stdlib"
for _name in ("filesystem", "env", "web_fetch", "web_search", "web_search_http", "db"):
    if str(STDLIB / _name) not in sys.path:
        sys.path.insert(0, str(STDLIB / _name))  # tools/ is a namespace package shared by the libraries


@pytest.fixture
def project(tmp_path: Path) -> Iterator[Path]:
    root = tmp_path / "project"
    root.mkdir()
    set_run_context(root, journal=tmp_path / "journal" / "run.jsonl")
    yield root
    clear_run_context()
