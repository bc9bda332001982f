"""The security acceptance tests reuse the in-process workspace harness of tests/sessions."""

from __future__ import annotations

import sys
from pathlib import Path

SESSIONS = Path(__file__).resolve().parents[1] / "sessions"
if str(SESSIONS) not in sys.path:
    sys.path.insert(0, str(SESSIONS))
