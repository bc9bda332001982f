import sqlite3
import stat
from pathlib import Path

import pytest

from clauz3.storage.atomic import write_atomic
from clauz3.storage.migrations import Migration, MigrationError, applied, open_store

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
