"""The language package loads its checker on first use, not on import of any of its modules."""

from __future__ import annotations

import subprocess
import sys

PROBE = """
import sys
import clauz3.language._layer_hash
heavy = sorted(m for m in ("clauz3.language.checker", "clauz3.language.ir") if m in sys.modules)
from clauz3.language import Refused, check_source
print(heavy, "clauz3.language.checker" in sys.modules, Refused.__name__, check_source.__name__)
"""


def test_the_layer_hash_alone_loads_no_checker_and_the_names_still_resolve() -> None:
    out = subprocess.run([sys.executable, "-I", "-c", PROBE], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["[]", "True", "Refused", "check_source"], out.stdout + out.stderr
