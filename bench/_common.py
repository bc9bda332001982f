"""Shared helpers for benchmark modules."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Sample:
    name: str
    values: list[float]
    unit: str = "s"
    target: float | None = None
    kind: str = "time"


def clauz3(*args: str, env: dict[str, str] | None = None, cwd: Path | None = None) -> tuple[float, int]:
    """Time one `python -m clauz3 …` process from spawn to exit."""
    full_env = dict(os.environ, **(env or {}))
    # Measure what a user sees: compiled modules cached after the first run.
    full_env.pop("PYTHONDONTWRITEBYTECODE", None)
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "clauz3", *args], cwd=cwd or ROOT, env=full_env,
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start, proc.returncode
