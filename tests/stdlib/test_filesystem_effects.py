"""Filesystem effects on real files (05 FS-1…FS-4) and host-side undo (FS-5, FS-6)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from tools.filesystem.trusted import effects as fx

from clauz3.errors import PreconditionError
from clauz3.runs import fileundo
from clauz3.stdlib import safefs
from clauz3.stdlib.runtime import set_run_context
from clauz3.stdlib.safefs import FsError
from clauz3.storage.journals import read_journal


def journal(project: Path) -> Path:
    return project.parent / "journal" / "run.jsonl"


def test_read_write_roundtrip(project: Path) -> None:
    fx.make_dir("notes")
    fx.write_file("./notes/a.txt", "one\r\ntwo\n")
    assert fx.read_file("notes/a.txt") == "one\r\ntwo\n"
    assert fx.read_lines("notes/a.txt") == ["one", "two"]
    assert fx.read_line("notes/a.txt", 2) == "two"
    with pytest.raises(FsError, match="out of range"):
        fx.read_line("notes/a.txt", 3)
    assert fx.grep("tw", "notes/a.txt") == ["two"]
    assert fx.list_dir(".") == ["notes/"]
    fx.append_file("notes/a.txt", "three\n")
    fx.replace_text("notes/a.txt", "two", "TWO")
    fx.edit_lines("notes/a.txt", 1, 1, "ONE")
    assert fx.read_lines("notes/a.txt") == ["ONE", "TWO", "three"]
    with pytest.raises(FsError, match="exactly once"):
        fx.replace_text("notes/a.txt", "O", "x")
    fx.copy("notes/a.txt", "notes/b.txt")
    fx.move("notes/b.txt", "c.txt")
    assert fx.find(".", "*.txt", "file", 3) == ["c.txt", "notes/a.txt"]
    fx.touch("empty.txt")
    fx.remove("empty.txt")
    assert not (project / "empty.txt").exists()


def test_symlinked_directory_refused(project: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (project / "link").symlink_to(outside)
    with pytest.raises(FsError, match="symbolic link refused: link"):
        fx.write_file("link/x.txt", "x")
    with pytest.raises(FsError, match="symbolic link refused"):
        fx.read_file("link/x.txt")
    assert list(outside.iterdir()) == []


def test_parent_segment_and_protected_paths_refused(project: Path) -> None:
    with pytest.raises(PreconditionError):
        fx.write_file("../x", "x")
    for path in (".clauz3/tools/x", ".git/hooks/pre-commit", "tools/mylib/trusted/effects.py"):
        with pytest.raises(FsError, match="protected path"):
            fx.write_file(path, "x")
    assert not (project / ".clauz3").exists() and not (project / ".git").exists()


def test_hard_linked_file_refused(project: Path) -> None:
    (project / "a.txt").write_text("a")
    os.link(project / "a.txt", project / "b.txt")
    with pytest.raises(FsError, match="hard link"):
        fx.write_file("a.txt", "changed")
    assert (project / "b.txt").read_text() == "a"


def test_fifo_refused(project: Path) -> None:
    os.mkfifo(project / "pipe")
    with pytest.raises(FsError, match="FIFO refused"):
        fx.read_file("pipe")


def test_overwrite_keeps_mode(project: Path) -> None:
    target = project / "script.sh"
    target.write_text("old")
    target.chmod(0o750)
    fx.write_file("script.sh", "new")
    assert target.read_text() == "new" and (target.stat().st_mode & 0o777) == 0o750


def test_crash_before_rename_leaves_original(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (project / "a.txt").write_text("original")

    def boom(*args: object, **kwargs: object) -> None:
        raise OSError(5, "injected failure")

    monkeypatch.setattr(safefs.os, "rename", boom)
    with pytest.raises(FsError, match="injected failure"):
        fx.write_file("a.txt", "new")
    assert (project / "a.txt").read_text() == "original"
    assert sorted(p.name for p in project.iterdir()) == ["a.txt"]


def test_unwritable_journal_stops_write(project: Path, tmp_path: Path) -> None:
    fd = os.open(tmp_path / "ro.jsonl", os.O_RDONLY | os.O_CREAT, 0o600)
    try:
        set_run_context(project, journal=fd)
        with pytest.raises(FsError, match="journal"):
            fx.write_file("a.txt", "x")
        assert not (project / "a.txt").exists()
    finally:
        os.close(fd)


def test_undo_restores_and_removes(project: Path) -> None:
    (project / "a.txt").write_text("before")
    fx.write_file("a.txt", "after")
    fx.write_file("new.txt", "created")
    fx.chmod("a.txt", 0o600)
    changes = fileundo.file_changes(journal(project))
    assert changes["undoable"] and [e["path"] for e in changes["entries"]] == ["a.txt", "new.txt", "a.txt"]
    results = {r.path: r.outcome for r in fileundo.undo(project, journal(project))}
    assert results == {"a.txt": "restored", "new.txt": "removed"}
    assert (project / "a.txt").read_text() == "before" and not (project / "new.txt").exists()
    assert fileundo.file_changes(journal(project))["undone"] is True
    with pytest.raises(fileundo.AlreadyUndone):
        fileundo.undo(project, journal(project))


def test_undo_changed_since_and_not_undoable(project: Path) -> None:
    (project / "big.txt").write_bytes(b"x" * 200_000)
    (project / "a.txt").write_text("before")
    fx.write_file("big.txt", "small now")
    fx.write_file("a.txt", "after")
    (project / "a.txt").write_text("edited by a person")
    results = {r.path: r.outcome for r in fileundo.undo(project, journal(project))}
    assert results == {"a.txt": "changed_since", "big.txt": "not_undoable"}
    assert (project / "a.txt").read_text() == "edited by a person"
    entries = read_journal(journal(project)).entries
    assert "content_b64" not in entries[0].before and entries[0].after is not None


def test_undo_recreates_removed_file_and_directory(project: Path) -> None:
    (project / "d").mkdir()
    (project / "d" / "f.txt").write_text("keep me")
    fx.remove("d/f.txt")
    fx.remove("d")
    outcomes = [r.outcome for r in fileundo.undo(project, journal(project))]
    assert outcomes == ["restored", "restored"]
    assert (project / "d" / "f.txt").read_text() == "keep me"
