"""PRV-4: the CLI's "can't start" line is :meth:`Availability.error_line`, the one place that formats it.

Both commands that refuse an unusable agent (``clauz3 ui`` and ``clauz3 start``) print exactly that line, with the
check's own hint: Pi on too old a Node is told to install Node 22, not Pi's npm package it already has.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from clauz3.sessions.agent.providers import LABELS, check
from clauz3.sessions.agent.providers.table import PI_PACKAGE, PI_PIN


def pi_on_old_node(root: Path) -> Path:
    """A bin folder holding the pinned Pi package's ``pi`` and a ``node`` that says v20 (Pi needs 22.19)."""
    pkg = root / "node_modules" / PI_PACKAGE
    (pkg / "dist").mkdir(parents=True)
    (pkg / "package.json").write_text(json.dumps({"name": PI_PACKAGE, "version": PI_PIN}))
    (pkg / "dist" / "index.js").write_text("export {}\n")
    cli = pkg / "dist" / "cli.js"
    cli.write_text("#!/bin/sh\n")
    cli.chmod(0o755)
    bin_dir = root / "bin"
    bin_dir.mkdir()
    (bin_dir / "pi").symlink_to(cli)
    node = bin_dir / "node"
    node.write_text("#!/bin/sh\necho v20.11.0\n")
    node.chmod(0o755)
    return bin_dir


@pytest.mark.parametrize("command", ["ui", "start"])
def test_unusable_agent_prints_the_availability_line(tmp_path: Path, command: str) -> None:
    bin_dir = pi_on_old_node(tmp_path)
    found = check("pi", path=str(bin_dir))
    assert not found.available and "Node.js 22.19" in found.reason
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAUZ3_")}
    env.update(PATH=f"{bin_dir}{os.pathsep}/usr/bin:/bin", CLAUZ3_HOME=str(tmp_path / "data"))
    done = subprocess.run([sys.executable, "-P", "-m", "clauz3", command, "pi", "--no-browser"], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert done.returncode == 4, done.stderr
    assert done.stderr.strip() == f"error: {found.error_line(LABELS['pi'])}"
