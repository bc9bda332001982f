"""The difftest tests reuse the interpreter tests' hand-built IR kit."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "interp"))
