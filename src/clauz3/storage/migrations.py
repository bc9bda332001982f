"""Ordered, recorded migrations for every SQLite file clauz3 owns.

Each store declares a list of ``Migration(name, sql_or_callable)``; :func:`migrate` applies the
ones not yet recorded in the ``_migrations`` table, each in its own transaction, in order. A
store is never altered by hand: a new column is a new migration at the end of the list.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Migration:
    name: str
    apply: str | Callable[[sqlite3.Connection], None]


class MigrationError(Exception):
    """The file was written by a newer clauz3 (unknown migrations recorded) or a step failed."""


def _ensure_table(conn: sqlite3.Connection) -> None:
    conn.execute(
        "CREATE TABLE IF NOT EXISTS _migrations ("
        " id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE,"
        " applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')))"
    )


def applied(conn: sqlite3.Connection) -> list[str]:
    _ensure_table(conn)
    return [row[0] for row in conn.execute("SELECT name FROM _migrations ORDER BY id")]


def migrate(conn: sqlite3.Connection, migrations: Sequence[Migration]) -> list[str]:
    """Apply pending migrations in order; return the names applied now."""
    names = [m.name for m in migrations]
    if len(set(names)) != len(names):
        raise MigrationError("duplicate migration names")
    done = applied(conn)
    if done != names[: len(done)]:
        raise MigrationError(
            "this database was written by another clauz3 version (recorded migrations: "
            + ", ".join(done) + ")"
        )
    ran: list[str] = []
    for migration in migrations[len(done):]:
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
    migrate(conn, migrations)
    return conn


def _set_wal(conn: sqlite3.Connection, timeout: float = 10.0) -> None:
    """Switch to WAL, retrying while another process switches the same new file at once.

    SQLite answers that race with SQLITE_BUSY at once instead of waiting out the busy timeout.
    """
    import time

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
