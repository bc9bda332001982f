"""A finished run's file-change journal in this project (05 FS-4..FS-7): where it is and whether its
changes can still be undone. The undo routes and the conversation's run records both read it here.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from clauz3.sessions.conversation.runs import RunUndo

RUN_ID = re.compile(r"^[A-Za-z0-9_-]{1,128}$")


def journal_file(data_dir: Path, project: str, run_id: str) -> str | None:
    """``project``'s journal of ``run_id`` when it is a regular file, else None (unknown, another
    project's run, or a name that cannot be a run id)."""
    from clauz3.storage.journals import journal_path

    if not RUN_ID.match(run_id):
        return None
    try:
        path = journal_path(data_dir, project, run_id)
    except ValueError:
        return None
    return path if os.path.isfile(path) and not os.path.islink(path) else None


def undo_state(data_dir: Path, project: str, run_id: str) -> RunUndo:
    """``undo: {available, undone}`` of a finished run (02 §4.6)."""
    from clauz3.runs.fileundo import file_changes

    path = journal_file(data_dir, project, run_id)
    if path is None:
        return RunUndo()
    try:
        summary = file_changes(path)
    except (OSError, ValueError):
        return RunUndo()
    return RunUndo(available=bool(summary["entries"]) and not summary["undone"], undone=bool(summary["undone"]))
