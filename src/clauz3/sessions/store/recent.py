"""Recently opened workspaces: ``<data>/recent-workspaces.sqlite`` (02 WSP-1, WSP-2).

Upserted at launch and on each successful switch. Tutorial copies (under ``<data>/tutorials``)
are never recorded (05 TUT-5).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

from clauz3.storage.migrations import Migration, open_store, transaction

MIGRATIONS = [
    Migration("001_workspaces", "CREATE TABLE workspaces (path TEXT PRIMARY KEY, used REAL NOT NULL);"),
]
SHOWN = 30


@dataclass(frozen=True)
class RecentWorkspace:
    path: str
    name: str
    used: float
    available: bool


class RecentWorkspaces:
    def __init__(self, data_dir: Path) -> None:
        self._data_dir = data_dir
        self._conn = open_store(data_dir / "recent-workspaces.sqlite", MIGRATIONS)

    def close(self) -> None:
        self._conn.close()

    def record(self, project: str) -> bool:
        """Upsert ``project`` (a canonical absolute path) as used now; False for a tutorial copy."""
        if Path(project).is_relative_to(self._data_dir / "tutorials"):
            return False
        with transaction(self._conn):
            self._conn.execute(
                "INSERT INTO workspaces (path, used) VALUES (?, ?)"
                " ON CONFLICT(path) DO UPDATE SET used = excluded.used",
                (project, time.time()),
            )
        return True

    def recent(self, limit: int = SHOWN) -> list[RecentWorkspace]:
        rows = self._conn.execute(
            "SELECT path, used FROM workspaces ORDER BY used DESC, rowid DESC LIMIT ?", (limit,)
        ).fetchall()
        return [RecentWorkspace(p, os.path.basename(p) or p, used, os.path.isdir(p)) for p, used in rows]
