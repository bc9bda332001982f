"""Where the tests' pinned npm adapters and Node 22 live (04 TST-2, 00 DEC-11), and which pins are missing.

``$CLAUZ3_TEST_NPM_PREFIX``, else ``<repo>/.cache/test-npm``: what ``scripts/install_adapters.sh`` installs into
(tests/conftest.py runs it before the session when a pin is missing).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PREFIX = Path(os.environ.get("CLAUZ3_TEST_NPM_PREFIX", REPO / ".cache" / "test-npm"))
NPM_BIN = PREFIX / "node_modules" / ".bin"
NODE = PREFIX / "node_modules" / "node" / "bin" / "node"


def installed_version(package: str, prefix: Path = PREFIX) -> str | None:
    try:
        data = json.loads((prefix / "node_modules" / package / "package.json").read_text())
    except (OSError, ValueError):
        return None
    version = data.get("version") if isinstance(data, dict) else None
    return version if isinstance(version, str) else None


def missing_pins(prefix: Path = PREFIX) -> list[str]:
    """The npm specs of ``TEST_NPM_SPECS`` not installed at their pin under ``prefix`` (node@22: any 22.x)."""
    from clauz3.sessions.agent.providers.table import TEST_NPM_SPECS

    missing = []
    for spec in TEST_NPM_SPECS:
        name, _, want = spec.rpartition("@")
        have = installed_version(name, prefix)
        if not (have is not None and (have.startswith(want + ".") if name == "node" else have == want)):
            missing.append(spec)
    return missing
