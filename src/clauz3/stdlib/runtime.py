"""Per-run context of the real stdlib effects: project root, file-change journal, protected roots.

The run worker calls :func:`set_run_context` once, after the receipt is verified and before the
sandbox applies (03 SBX-3: the FS-4 journal is opened first and written only through that
descriptor). Without a call, the project root is the process's working directory (the worker
runs with cwd = workspace root, 03 RUN-4), the journal is the file named by the environment
variable ``CLAUZ3_FILE_JOURNAL`` if set, else there is no journal, and the protected trusted roots
are the default ``tools/<d>/trusted`` and ``tools/<org>/<d>/trusted`` shapes.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable
from dataclasses import dataclass

from clauz3.storage.journals import open_journal
from clauz3.vocabulary.paths import canonical_path, path_error

__all__ = ["JOURNAL_ENV", "RunContext", "clear_run_context", "get_run_context", "set_run_context"]

JOURNAL_ENV = "CLAUZ3_FILE_JOURNAL"


@dataclass(frozen=True)
class RunContext:
    """Where the effects act and how mutations are recorded.

    ``project_root``: absolute path of the workspace root. ``journal_fd``: an ``O_APPEND``
    descriptor of the run's ``<run-id>.jsonl`` journal, or None (mutations are not journaled).
    ``protected``: project-relative canonical paths of authorized trusted roots (FS-2).
    """

    project_root: str
    journal_fd: int | None
    protected: tuple[str, ...]


_lock = threading.Lock()
_context: RunContext | None = None


def _relative_protected(root: str, entries: Iterable[str | os.PathLike[str]]) -> tuple[str, ...]:
    out: list[str] = []
    for entry in entries:
        text = os.fspath(entry)
        if os.path.isabs(text):
            rel = os.path.relpath(os.path.realpath(text), root)
            if rel == ".." or rel.startswith("../"):
                continue  # outside the project: no effect can reach it anyway
            text = rel
        if path_error(text, directory=True) is None:
            out.append(canonical_path(text))
    return tuple(sorted(set(out)))


def set_run_context(project_root: str | os.PathLike[str], *, journal: int | str | os.PathLike[str] | None = None,
                    protected_roots: Iterable[str | os.PathLike[str]] = ()) -> RunContext:
    """Install the context for this process.

    ``journal`` is an open descriptor (kept open, owned by the caller) or a path opened here with
    :func:`clauz3.storage.journals.open_journal`. ``protected_roots`` are the run's authorized
    trusted roots, absolute or project-relative; mutations under them are refused.
    """
    global _context
    root = os.path.realpath(os.fspath(project_root))
    fd = journal if isinstance(journal, int) or journal is None else open_journal(journal)
    ctx = RunContext(root, fd, _relative_protected(root, protected_roots))
    with _lock:
        _context = ctx
    return ctx


def clear_run_context() -> None:
    """Forget the installed context (tests; a forked warm worker before its next run)."""
    global _context
    with _lock:
        _context = None


def get_run_context() -> RunContext:
    """The installed context, else the default described in the module docstring."""
    global _context
    with _lock:
        if _context is not None:
            return _context
    env = os.environ.get(JOURNAL_ENV) or None
    return set_run_context(os.getcwd(), journal=env)
