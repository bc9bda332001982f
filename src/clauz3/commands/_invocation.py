"""How the person started clauz3, so the commands it suggests work as pasted (issue 22).

The README's person types ``uv run clauz3 …`` in the repository; a hint that says ``clauz3 start``
fails for them (no ``clauz3`` on PATH). ``uv run`` marks the programs it starts with
``UV_RUN_RECURSION_DEPTH`` and is their parent; then every suggested ``clauz3 <subcommand>`` is printed as ``uv run clauz3 …``.
"""

from __future__ import annotations

import os
import re

SUBCOMMANDS = ("ui", "start", "resume", "prove", "run", "approval-service", "approval-keygen",
               "mock-approval-service", "policy-check", "tools", "libraries", "install", "test", "lint",
               "config", "link")
_SUGGESTED = re.compile(r"(?<![\w/.-])clauz3 (?=(?:" + "|".join(re.escape(s) for s in SUBCOMMANDS) + r"|--help)\b)")


def _started_by_uv() -> bool:
    """``uv run`` marks its child with ``UV_RUN_RECURSION_DEPTH`` and is its parent process; the mark
    alone is inherited by everything below (a test runner started with ``uv run pytest``)."""
    if not os.environ.get("UV_RUN_RECURSION_DEPTH"):
        return False
    try:
        with open(f"/proc/{os.getppid()}/comm", encoding="utf-8") as fh:
            return fh.read().strip() == "uv"
    except OSError:
        return False


def prefix() -> str:
    """``uv run clauz3`` when ``uv run`` started this process, else ``clauz3``."""
    return "uv run clauz3" if _started_by_uv() else "clauz3"


def as_invoked(text: str) -> str:
    """``text`` with each suggested ``clauz3 <subcommand>`` written as the person invokes clauz3."""
    name = prefix()
    if name == "clauz3":
        return text
    return _SUGGESTED.sub(lambda _m: name + " ", text)
