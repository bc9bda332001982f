"""Ordered, recorded migrations for every SQLite file clauz3 owns.

Each SQLite file has ONE owner module that declares ONE ordered list of
``Migration(name, sql_or_callable)``; other modules reach the file only through the owner's API.
:func:`migrate` applies, by name and in list order, the migrations not yet recorded in the
file's ``_migrations`` table, each in its own transaction. The recorded names alone are the
file's version (no ``PRAGMA user_version``): a recorded name the list does not know means a newer
clauz3 wrote the file, and it is refused before anything writes to it. A store is never altered
by hand and a list is append-only: a new column is a new migration at the end.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from clauz3.storage.errors import StorageError

# MigrationError codes: a file from a newer clauz3; an owner's list that is itself wrong.
STORE_NEWER = "store_newer"
LIST_INVALID = "migration_list_invalid"


@dataclass(frozen=True)
class Migration:
    name: str
    apply: str | Callable[[sqlite3.Connection], None]


class MigrationError(StorageError):
    """A store cannot be brought to this version's list; ``code`` is one of the codes above."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message, code)


def _ensure_table(conn: sqlite3.Connection) -> None:
    conn.execute(
        "CREATE TABLE IF NOT EXISTS _migrations ("
        " id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE,"
        " applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')))"
    )


def applied(conn: sqlite3.Connection) -> list[str]:
    _ensure_table(conn)
    return [row[0] for row in conn.execute("SELECT name FROM _migrations ORDER BY id")]


def _check_list(migrations: Sequence[Migration]) -> list[str]:
    names = [m.name for m in migrations]
    if len(set(names)) != len(names):
        raise MigrationError(LIST_INVALID, "duplicate migration names: " + ", ".join(
            sorted({n for n in names if names.count(n) > 1})))
    return names


def _refuse_unknown(done: Sequence[str], names: Sequence[str], label: str) -> None:
    unknown = [name for name in done if name not in names]
    if unknown:
        raise MigrationError(
            STORE_NEWER, f"{label} was written by a newer clauz3 (unknown migrations: {', '.join(unknown)})")


def migrate(conn: sqlite3.Connection, migrations: Sequence[Migration], *, label: str = "this database"
            ) -> list[str]:
    """Apply the not-yet-recorded migrations by name, in list order; return the names applied now."""
    names = _check_list(migrations)
    recorded_now = applied(conn)
    _refuse_unknown(recorded_now, names, label)
    done = set(recorded_now)
    ran: list[str] = []
    for migration in migrations:
        if migration.name in done:
            continue
        # BEGIN IMMEDIATE so two processes opening a fresh file never both migrate it.
        conn.execute("BEGIN IMMEDIATE")
        try:
            if migration.name in applied(conn):
                conn.execute("ROLLBACK")
                continue
            if callable(migration.apply):
                migration.apply(conn)
            else:
                for statement in _split(migration.apply):
                    conn.execute(statement)
            conn.execute("INSERT INTO _migrations (name) VALUES (?)", (migration.name,))
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        ran.append(migration.name)
    return ran


def recorded(path: Path) -> list[str]:
    """The migrations recorded in ``path``, read without writing (``[]`` for a new or empty file)."""
    if not path.exists() or path.stat().st_size == 0:
        return []
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=10.0)
    try:
        conn.execute("PRAGMA busy_timeout = 10000")
        if conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_migrations'").fetchone() is None:
            return []
        return [row[0] for row in conn.execute("SELECT name FROM _migrations ORDER BY id")]
    finally:
        conn.close()


def clear_user_version(conn: sqlite3.Connection) -> None:
    """A migration step for files made before the recorded list was the only version record."""
    conn.execute("PRAGMA user_version = 0")


def _split(script: str) -> list[str]:
    """Split a migration script into statements (``sqlite3.complete_statement`` aware)."""
    statements: list[str] = []
    buffer = ""
    for line in script.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            if buffer.strip():
                statements.append(buffer.strip())
            buffer = ""
    if buffer.strip():
        statements.append(buffer.strip())
    return statements


def open_store(path: Path, migrations: Sequence[Migration], *, wal: bool = True) -> sqlite3.Connection:
    """Open (creating 0600 in a 0700 directory) and migrate a SQLite store.

    The connection is in autocommit mode (``isolation_level=None``); callers use explicit
    ``BEGIN``/``COMMIT`` (or :func:`transaction`) so every multi-statement change is atomic.
    """
    names = _check_list(migrations)
    _refuse_unknown(recorded(path), names, path.name)  # before the WAL switch or any write
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    if not path.exists():
        fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
        os.close(fd)
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=10.0)
    conn.execute("PRAGMA busy_timeout = 10000")
    conn.execute("PRAGMA foreign_keys = ON")
    if wal:
        _set_wal(conn)
        conn.execute("PRAGMA synchronous = NORMAL")
    try:
        migrate(conn, migrations, label=path.name)
    except BaseException:
        conn.close()
        raise
    return conn


def _set_wal(conn: sqlite3.Connection, timeout: float = 10.0) -> None:
    """Switch to WAL, retrying while another process switches the same new file at once.

    SQLite answers that race with SQLITE_BUSY at once instead of waiting out the busy timeout.
    """
    deadline = time.monotonic() + timeout
    delay = 0.005
    while True:
        try:
            conn.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if ("locked" not in str(exc) and "busy" not in str(exc)) or time.monotonic() > deadline:
                raise
            time.sleep(delay)
            delay = min(delay * 2, 0.1)


class transaction:
    """``with transaction(conn): ...`` — BEGIN IMMEDIATE … COMMIT, ROLLBACK on error."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def __enter__(self) -> sqlite3.Connection:
        self.conn.execute("BEGIN IMMEDIATE")
        return self.conn

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        self.conn.execute("ROLLBACK" if exc_type else "COMMIT")
