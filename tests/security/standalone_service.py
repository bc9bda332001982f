"""The standalone `clauz3 approval-service` as a real process on 127.0.0.1, for the issue 19 tests."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

EMAIL_TOOLS = Path(__file__).resolve().parents[2] / "examples" / "email" / "tools"


@dataclass
class Standalone:
    base: str
    submission: str
    approver: str
    project: Path


@contextlib.contextmanager
def standalone_service(tmp_path: Path) -> Iterator[Standalone]:
    """`clauz3 approval-service` for ``tmp_path/project`` (the email example library) as a real process."""
    project = tmp_path / "project"
    shutil.copytree(EMAIL_TOOLS, project / "tools", ignore=shutil.ignore_patterns("__pycache__"))
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAUZ3_")}
    env["CLAUZ3_HOME"] = str(tmp_path / "data")
    proc = subprocess.Popen([sys.executable, "-m", "clauz3", "approval-service", "--port", "0", "--project",
                             str(project), "--trusted-root", str(project / "tools" / "email" / "trusted"),
                             "--import-root", str(project)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env)
    try:
        assert proc.stdout is not None
        banner: dict[str, str] = {}
        approver = ""
        while len(banner) < 3 or not approver:
            line = proc.stdout.readline()
            assert line, proc.stderr.read() if proc.stderr else ""
            if line.startswith("Approver UI (keep private): "):
                approver = line.strip().split("key=", 1)[1]
            elif "=" in line:
                k, v = line.strip().split("=", 1)
                banner[k] = v
        yield Standalone(banner["CLAUZ3_APPROVAL_SERVICE"], banner["CLAUZ3_APPROVAL_TOKEN"], approver, project)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
