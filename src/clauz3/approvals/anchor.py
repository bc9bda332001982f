"""The trust anchor of ``clauz3 run`` (issue 11 §3): which authority a run may trust, told by that authority.

An approval service the person started writes ``<data>/workspaces/<sha256(project)>/authority.json``
(0600 in 0700 directories, outside the workspace): its loopback URL, its verifying key and the layer
it authorised, with its pid. ``clauz3 run`` takes its trust inputs from this record; a URL, key or
root list from a flag or an environment variable that differs from it (or any, when no record exists)
is used only when a person at a terminal confirms. The CLI mock service never writes a record; the
in-process test form writes one of ``kind`` ``"mock"``, which a run treats as trusting any layer.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from clauz3.storage.paths import canonical_project, workspace_state_dir

FILE_NAME = "authority.json"
AUTHORITY = "authority"
MOCK = "mock"


@dataclass(frozen=True)
class AnchorRecord:
    kind: str
    service_url: str
    verify_key: str
    project: str
    trusted_roots: tuple[str, ...] | None
    import_roots: tuple[str, ...] | None
    pid: int

    def to_json(self) -> dict[str, object]:
        return {"schema_version": 1, "kind": self.kind, "service_url": self.service_url,
                "verify_key": self.verify_key, "project": self.project,
                "trusted_roots": list(self.trusted_roots) if self.trusted_roots is not None else None,
                "import_roots": list(self.import_roots) if self.import_roots is not None else None,
                "pid": self.pid}


def anchor_path(data: Path, project: str | os.PathLike[str]) -> Path:
    return workspace_state_dir(data, project) / FILE_NAME


def write_anchor(data: Path, record: AnchorRecord) -> Path:
    """Atomically publish ``record`` for its project (0600; the directories 0700)."""
    from clauz3.storage.atomic import write_atomic

    path = anchor_path(data, record.project)
    data.mkdir(parents=True, exist_ok=True, mode=0o700)
    write_atomic(path, (json.dumps(record.to_json(), indent=2) + "\n").encode("utf-8"), mode=0o600)
    return path


def remove_anchor(data: Path, project: str | os.PathLike[str], pid: int | None = None) -> None:
    """Remove the record if it is still the one of ``pid`` (default: this process)."""
    found = read_anchor(data, project, live_only=False)
    if found is not None and found.pid == (os.getpid() if pid is None else pid):
        try:
            anchor_path(data, project).unlink()
        except OSError:
            pass


def _alive(pid: int, kind: str) -> bool:
    """The record's process still runs, and for an authority it is still ``clauz3 approval-service`` (a
    reused pid of a service killed with SIGKILL is no authority)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return False
    if kind == AUTHORITY:
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except FileNotFoundError:
            return not Path("/proc/self").exists()  # no procfs: the signal check is all there is
        except OSError:
            return False
        return b"approval-service" in cmdline.split(b"\0")
    return True


def read_anchor(data: Path, project: str | os.PathLike[str], *, live_only: bool = True) -> AnchorRecord | None:
    """The record of a live authority for ``project``, else None (absent, stale, foreign or malformed).

    A record must be a regular file owned by this user and closed to others: one that anybody else
    could have written is no anchor at all."""
    from clauz3.storage.secretfiles import InsecureFileError, read_secret

    path = anchor_path(data, project)
    try:
        raw = read_secret(path)  # a regular 0600 file, no link, in a directory others cannot write
    except (InsecureFileError, OSError, ValueError):
        return None
    try:
        doc = json.loads(raw.decode("utf-8"))
        record = AnchorRecord(
            kind=str(doc["kind"]), service_url=str(doc["service_url"]), verify_key=str(doc["verify_key"]),
            project=str(doc["project"]),
            trusted_roots=tuple(doc["trusted_roots"]) if doc.get("trusted_roots") is not None else None,
            import_roots=tuple(doc["import_roots"]) if doc.get("import_roots") is not None else None,
            pid=int(doc["pid"]))
    except (UnicodeDecodeError, ValueError, KeyError, TypeError):
        return None
    if record.kind not in (AUTHORITY, MOCK) or record.project != canonical_project(project):
        return None
    if live_only and not _alive(record.pid, record.kind):
        return None
    return record


__all__ = ["AUTHORITY", "MOCK", "AnchorRecord", "anchor_path", "read_anchor", "remove_anchor", "write_anchor"]
