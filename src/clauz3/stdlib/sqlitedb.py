"""Bodies of the ``db`` effects (05 DB-1): SQLite files inside the project, no SQL text accepted.

Files are reached like the filesystem library's (FS-1: component-wise from the project root,
no links; FS-2: no changes under protected paths, no hard-linked files). SQLite opens the file
through ``/proc/self/fd/<directory descriptor>/<name>``, so no component of the path is resolved
again by name; the final name is checked before and after opening.
"""

from __future__ import annotations

import re
import sqlite3
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from clauz3.stdlib.errors import StdlibError
from clauz3.stdlib.runtime import get_run_context
from clauz3.stdlib.safefs import FsError, check_mutable, lstat_at, open_parent, project_fd, segments

__all__ = ["DbError", "create_table", "insert_row", "read_rows"]

IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}")
SUFFIXES = (".sqlite", ".sqlite3", ".db")
MAX_ROWS = 100
_SQL_TYPES = {str: "TEXT", int: "INTEGER", bool: "INTEGER"}


class DbError(StdlibError):
    """A refused or failed database operation; the message names the argument."""


def _ident(kind: str, name: str) -> str:
    if not isinstance(name, str) or IDENT.fullmatch(name) is None:
        raise DbError(f"{kind} {name!r} is not a plain identifier ([A-Za-z_][A-Za-z0-9_]*, at most 64 characters)")
    return '"' + name + '"'


def _fields(schema: Any) -> dict[str, type]:
    fields = getattr(schema, "__row_fields__", None)
    if not isinstance(schema, type) or not isinstance(fields, dict) or not fields:
        raise DbError(f"schema {schema!r} is not a clauz3.Row class")
    for name, tp in fields.items():
        _ident("column", name)
        if tp not in _SQL_TYPES:
            raise DbError(f"schema field {name} must be str, int or bool")
    return dict(fields)


@contextmanager
def _connect(path: str, *, write: bool) -> Iterator[sqlite3.Connection]:
    if not isinstance(path, str) or not path.endswith(SUFFIXES):
        raise DbError(f"path {path!r} must end in .sqlite, .sqlite3 or .db")
    ctx = get_run_context()
    try:
        segs = segments(path)
        shown = "/".join(segs)
        if write:
            check_mutable(segs, ctx.protected, shown)
        with project_fd(ctx.project_root) as root, open_parent(root, segs) as (dirfd, name):
            before = lstat_at(dirfd, name)
            if before is not None:
                if stat.S_ISLNK(before.st_mode):
                    raise FsError(f"symbolic link refused: {shown}")
                if not stat.S_ISREG(before.st_mode):
                    raise FsError(f"not a regular file: {shown}")
                if write and before.st_nlink > 1:
                    raise FsError(f"protected path: {shown} (file has more than one hard link)")
            elif not write:
                raise FsError(f"no such database: {shown}")
            target = f"/proc/self/fd/{dirfd}/{name}"
            uri = f"file:{target}?mode={'rwc' if write else 'ro'}"
            conn = sqlite3.connect(uri, uri=True, timeout=5.0, isolation_level=None)
            try:
                conn.execute("PRAGMA busy_timeout = 5000")
                conn.execute("PRAGMA trusted_schema = OFF")
                conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
                after = lstat_at(dirfd, name)
                if after is None or stat.S_ISLNK(after.st_mode) or (
                        before is not None and (after.st_ino, after.st_dev) != (before.st_ino, before.st_dev)):
                    raise FsError(f"{shown} changed while it was opened")
                yield conn
            finally:
                conn.close()
    except FsError as exc:
        raise DbError(str(exc)) from None
    except sqlite3.Error as exc:
        raise DbError(f"database {path}: {exc}") from None


def read_rows(schema: Any, path: str, table: str, where: dict[str, Any]) -> list[Any]:
    fields = _fields(schema)
    quoted = _ident("table", table)
    if not isinstance(where, dict):
        raise DbError("where must be a dict of column names to values")
    clauses, values = [], []
    for column, value in where.items():
        clauses.append(f"{_ident('where column', column)} = ?")
        if not isinstance(value, (str, int, bool)):
            raise DbError(f"where value for {column} must be str, int or bool")
        values.append(int(value) if isinstance(value, bool) else value)
    columns = ", ".join(_ident("column", c) for c in fields)
    sql = f"SELECT {columns} FROM {quoted}" + (f" WHERE {' AND '.join(clauses)}" if clauses else "")
    sql += f" LIMIT {MAX_ROWS}"
    with _connect(path, write=False) as conn:
        try:
            rows = conn.execute(sql, values).fetchall()
        except sqlite3.Error as exc:
            raise DbError(f"database {path}, table {table}: {exc}") from None
    out = []
    for raw in rows:
        kwargs = {}
        for (name, tp), value in zip(fields.items(), raw, strict=True):
            kwargs[name] = bool(value) if tp is bool else value
            if tp is not bool and not isinstance(kwargs[name], tp):
                raise DbError(f"table {table}: column {name} holds {type(value).__name__}, schema says {tp.__name__}")
        out.append(schema(**kwargs))
    return out


def create_table(schema: Any, path: str, table: str) -> None:
    fields = _fields(schema)
    quoted = _ident("table", table)
    cols = []
    for name, tp in fields.items():
        col = _ident("column", name)
        check = f" CHECK ({col} IN (0, 1))" if tp is bool else ""
        cols.append(f"{col} {_SQL_TYPES[tp]} NOT NULL{check}")
    with _connect(path, write=True) as conn:
        try:
            # No IF NOT EXISTS: an existing table is an error and stays unchanged.
            conn.execute(f"CREATE TABLE {quoted} ({', '.join(cols)}) STRICT")
        except sqlite3.Error as exc:
            raise DbError(f"cannot create table {table} in {path}: {exc}") from None


def insert_row(path: str, table: str, row: dict[str, Any]) -> None:
    quoted = _ident("table", table)
    if not isinstance(row, dict) or not row:
        raise DbError("row must be a non-empty dict of column names to values")
    names, values = [], []
    for column, value in row.items():
        names.append(_ident("row column", column))
        if not isinstance(value, (str, int, bool)):
            raise DbError(f"row value for {column} must be str, int or bool")
        values.append(int(value) if isinstance(value, bool) else value)
    marks = ", ".join("?" for _ in names)
    with _connect(path, write=True) as conn:
        try:
            conn.execute(f"INSERT INTO {quoted} ({', '.join(names)}) VALUES ({marks})", values)
        except sqlite3.Error as exc:
            raise DbError(f"cannot insert into {table} in {path}: {exc}") from None
