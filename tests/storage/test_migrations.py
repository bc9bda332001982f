import sqlite3
import stat
from pathlib import Path

import pytest

from clauz3.storage.atomic import write_atomic
from clauz3.storage.migrations import (
    LIST_INVALID,
    STORE_NEWER,
    Migration,
    MigrationError,
    applied,
    clear_user_version,
    open_store,
)

M1 = Migration("001_items", "CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT);")
M2 = Migration("002_items_note", "ALTER TABLE items ADD COLUMN note TEXT;")


def test_applies_in_order_once(tmp_path: Path) -> None:
    path = tmp_path / "d" / "s.sqlite"
    conn = open_store(path, [M1])
    conn.execute("INSERT INTO items (name) VALUES ('a')")
    conn.close()
    conn = open_store(path, [M1, M2])
    assert applied(conn) == ["001_items", "002_items_note"]
    assert conn.execute("SELECT name, note FROM items").fetchall() == [("a", None)]
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700


def test_newer_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    open_store(path, [M1, M2]).close()
    with pytest.raises(MigrationError):
        open_store(path, [M1])


def test_failed_step_rolls_back(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    bad = Migration("002_bad", "CREATE TABLE t2 (x);\nINSERT INTO nowhere VALUES (1);")
    with pytest.raises(sqlite3.OperationalError):
        open_store(path, [M1, bad])
    conn = sqlite3.connect(path)
    assert [r[0] for r in conn.execute("SELECT name FROM _migrations")] == ["001_items"]
    assert conn.execute("SELECT name FROM sqlite_master WHERE name='t2'").fetchall() == []


def test_write_atomic_private(tmp_path: Path) -> None:
    target = tmp_path / "x" / "f.json"
    write_atomic(target, b"one")
    write_atomic(target, b"two")
    assert target.read_bytes() == b"two"
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert [p.name for p in target.parent.iterdir()] == ["f.json"]


def test_unknown_recorded_migration_is_refused_before_any_write(tmp_path: Path) -> None:
    """A file from a newer clauz3: one line naming the file and the unknown steps, code store_newer."""
    path = tmp_path / "s.sqlite"
    open_store(path, [M1, M2], wal=False).close()
    before = path.read_bytes()
    with pytest.raises(MigrationError) as newer:
        open_store(path, [M1])
    assert newer.value.code == STORE_NEWER
    assert str(newer.value) == "s.sqlite was written by a newer clauz3 (unknown migrations: 002_items_note)"
    assert path.read_bytes() == before
    assert not (tmp_path / "s.sqlite-wal").exists()  # refused before the WAL switch


def test_applied_by_name_so_a_step_added_to_one_section_never_breaks_the_other(tmp_path: Path) -> None:
    """A list made of two sections (as runs.sqlite once was) gains a step in its first section."""
    path = tmp_path / "s.sqlite"
    first, second = Migration("a-0001", "CREATE TABLE a (x);"), Migration("b-0001", "CREATE TABLE b (y);")
    open_store(path, [first, second]).close()
    added = Migration("a-0002", "ALTER TABLE a ADD COLUMN z;")
    conn = open_store(path, [first, added, second])
    assert applied(conn) == ["a-0001", "b-0001", "a-0002"]
    assert [r[1] for r in conn.execute("PRAGMA table_info(a)")] == ["x", "z"]
    conn.close()


def test_duplicate_names_are_a_list_error(tmp_path: Path) -> None:
    with pytest.raises(MigrationError) as dup:
        open_store(tmp_path / "s.sqlite", [M1, M1])
    assert dup.value.code == LIST_INVALID and str(dup.value) == "duplicate migration names: 001_items"
    assert not (tmp_path / "s.sqlite").exists()


def test_clear_user_version_step(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    conn = open_store(path, [M1])
    conn.execute("PRAGMA user_version = 1")
    conn.close()
    conn = open_store(path, [M1, Migration("002_clear", clear_user_version)])
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 0
    conn.close()
