"""No interpreter the agent can write (issue 19 §4).

Python runs every ``*.pth`` of its site-packages, and ``sitecustomize``/``usercustomize``, at start:
before a worker applies its sandbox, and in the approval service and its prover child. An
environment inside the workspace (a project ``.venv``) is one approved file write away from code
in all of them, so clauz3 refuses to run from one.
"""

from __future__ import annotations

import os
import site
import sys
from pathlib import Path


def _within(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def interpreter_dirs() -> list[str]:
    """The interpreter's prefixes and site-packages directories, resolved."""
    dirs = [sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix]
    try:
        dirs += site.getsitepackages()
    except AttributeError:  # a virtualenv's old site.py
        pass
    dirs += [p for p in sys.path if p.endswith(("site-packages", "dist-packages"))]
    return list(dict.fromkeys(os.path.realpath(d) for d in dirs if d))


def writable_interpreter(workspace: Path) -> str | None:
    """The one-line refusal when the interpreter lies inside ``workspace``, else None."""
    ws = os.path.realpath(workspace)
    for found in interpreter_dirs():
        if _within(found, ws):
            env = os.path.realpath(sys.prefix) if _within(os.path.realpath(sys.prefix), ws) else found
            return (f"the Python environment {env} is inside the workspace {ws}, which the agent and approved "
                    "programs can write (a .pth file there runs before any sandbox); create it outside the "
                    "project (e.g. UV_PROJECT_ENVIRONMENT=~/.venvs/<project> uv sync) "
                    "and run clauz3 from there")
    return None
