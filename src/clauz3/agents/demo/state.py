"""Demo session files ``<data>/agents/demo/sessions/<id>.json`` (04 DEMO-4).

0600 files in 0700 directories, replaced atomically; the history keeps at most 200 entries and
1 MiB, dropping the oldest first.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

SESSION_ID_RE = re.compile(r"demo-[0-9a-f]{32}")
MAX_ENTRIES = 200
MAX_BYTES = 1024 * 1024


def data_dir() -> Path:
    home = os.environ.get("CLAUZ3_HOME")
    if home:
        return Path(home)
    xdg = os.environ.get("XDG_DATA_HOME")
    if xdg:
        return Path(xdg) / "clauz3"
    return Path.home() / ".local" / "share" / "clauz3"


def sessions_dir() -> Path:
    return data_dir() / "agents" / "demo" / "sessions"


@dataclass
class SessionRecord:
    id: str
    cwd: str
    created: float = field(default_factory=time.time)
    history: list[dict[str, str]] = field(default_factory=list)

    def add(self, role: str, text: str) -> None:
        self.history.append({"role": role, "text": text})
        del self.history[: max(0, len(self.history) - MAX_ENTRIES)]
        while len(self.history) > 1 and len(self._encode()) > MAX_BYTES:
            self.history.pop(0)

    def _encode(self) -> bytes:
        payload = {"schema_version": 1, "id": self.id, "cwd": self.cwd, "created": self.created,
                   "history": self.history}
        return json.dumps(payload, ensure_ascii=False).encode("utf-8")

    def save(self) -> None:
        directory = sessions_dir()
        for part in (data_dir(), data_dir() / "agents", data_dir() / "agents" / "demo", directory):
            part.mkdir(mode=0o700, exist_ok=True, parents=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{self.id}.", suffix=".tmp", dir=directory)
        try:
            os.fchmod(fd, 0o600)
            with os.fdopen(fd, "wb") as fh:
                fh.write(self._encode())
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, directory / f"{self.id}.json")
        except BaseException:
            try:
                os.unlink(tmp)
            except FileNotFoundError:
                pass
            raise


def load(session_id: str) -> SessionRecord | None:
    """The saved session, or None for a malformed or unknown id (or an unreadable file)."""
    if not SESSION_ID_RE.fullmatch(session_id):
        return None
    path = sessions_dir() / f"{session_id}.json"
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
        with os.fdopen(fd, "rb") as fh:
            payload = json.loads(fh.read(MAX_BYTES * 2))
    except (OSError, ValueError):
        return None
    if not isinstance(payload, dict) or payload.get("schema_version") != 1 or payload.get("id") != session_id:
        return None
    history = [
        {"role": e["role"], "text": e["text"]}
        for e in payload.get("history", [])
        if isinstance(e, dict) and e.get("role") in ("user", "agent") and isinstance(e.get("text"), str)
    ]
    created = payload.get("created")
    return SessionRecord(
        session_id, str(payload.get("cwd", "")), float(created) if isinstance(created, int | float) else 0.0, history
    )
