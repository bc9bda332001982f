"""The security acceptance tests reuse the in-process workspace harness of tests/sessions and tests/proc_tree.py."""

from __future__ import annotations

import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
for _path in (TESTS, TESTS / "sessions"):  # tests/ for proc_tree, tests/sessions for sessions_harness
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))
