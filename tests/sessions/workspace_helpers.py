"""Shared helpers for the workspace routes' tests: projects with installed stdlib libraries, real runs."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from clauz3.layers.apply import apply_review
from clauz3.layers.locations import Target
from clauz3.layers.review import prepare_install

APPEND_MILK = '''
import clauz3
from tools.filesystem.trusted import contracts as filesystem
from tools.filesystem.trusted.effects import append_file, write_file


@clauz3.guarantee(filesystem.only_write_under(dir='notes'))
@clauz3.guarantee(filesystem.writes_at_most(n=2))
@clauz3.guarantee(filesystem.no_deletes())
def main() -> None:
    append_file('notes/groceries.txt', 'milk\\n')
    write_file('notes/new.txt', 'fresh file')
'''


def install(project: Path, data: Path, source: str) -> None:
    target = Target.for_project(project, data)
    record = prepare_install(target, source, action="install", cwd=project)
    apply_review(target, record["id"])


def files_project(tmp: Path, data: Path) -> Path:
    project = tmp / "project"
    (project / "notes").mkdir(parents=True)
    (project / "notes" / "groceries.txt").write_text("apples\nbread\n")
    install(project, data, "stdlib:filesystem")
    return Path(os.path.realpath(project))


def real_run(project: Path, data: Path, source: str, request_id: str) -> dict[str, Any]:
    """One real worker run (prove → mock approval → execute) writing its FS-4 journal under ``data``."""
    from clauz3.approvals.mock import MockApprovalService
    from clauz3.runs.supervisor import RunConfig, Supervisor

    trusted = str(project / ".clauz3" / "tools" / "filesystem" / "trusted")
    with MockApprovalService(data, project) as svc:
        config = RunConfig(source=source, project=project, trusted_roots=[trusted],
                           import_roots=[str(project / ".clauz3"), str(project)], service_url=svc.url,
                           submission_token=svc.token, verify_key=svc.verify_key.text, data_dir=data,
                           request_id=request_id, use_cache=False)
        result = Supervisor(config).run()
    return result.record.to_json()


def headers(harness: Any) -> dict[str, str]:
    return {"Origin": harness.origin, "Content-Type": "application/json"}


def snapshot_tree(root: Path) -> dict[str, tuple[bytes | None, int]]:
    """Every path under ``root`` with its bytes (None for dirs) and mode: byte-identical comparisons."""
    out: dict[str, tuple[bytes | None, int]] = {}
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for name in dirs:
            p = Path(folder) / name
            out[str(p.relative_to(root))] = (None, p.lstat().st_mode)
        for name in files:
            p = Path(folder) / name
            out[str(p.relative_to(root))] = (p.read_bytes(), p.lstat().st_mode)
    return out
