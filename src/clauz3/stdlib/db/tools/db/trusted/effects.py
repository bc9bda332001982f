"""The db effects: typed reads, table creation and row inserts on SQLite files in the project."""

from typing import TypeVar

from tools.db.trusted.grammar import is_db_path

import clauz3
from clauz3.stdlib import sqlitedb

T = TypeVar("T")


@clauz3.trusted
@clauz3.requires(lambda schema, path, table, where: is_db_path(path),
                 message="path must be a project-relative .sqlite, .sqlite3 or .db file")
@clauz3.requires(lambda schema, path, table, where: len(table) >= 1 and len(table) <= 64,
                 message="table must be 1 to 64 characters long")
@clauz3.ensures(lambda result: len(result) <= 100)
def read_rows(schema: type[T], path: str, table: str, where: dict[str, object]) -> list[T]:
    """Return at most 100 rows of table in the database at path whose columns equal the values in where."""
    return sqlitedb.read_rows(schema, path, table, where)


@clauz3.trusted
@clauz3.requires(lambda schema, path, table: is_db_path(path),
                 message="path must be a project-relative .sqlite, .sqlite3 or .db file")
@clauz3.requires(lambda schema, path, table: len(table) >= 1 and len(table) <= 64,
                 message="table must be 1 to 64 characters long")
def create_table(schema: type[T], path: str, table: str) -> None:
    """Create table in the database at path (created if missing) with the schema's columns; an existing table is an error."""
    sqlitedb.create_table(schema, path, table)


@clauz3.trusted
@clauz3.requires(lambda path, table, row: is_db_path(path),
                 message="path must be a project-relative .sqlite, .sqlite3 or .db file")
@clauz3.requires(lambda path, table, row: len(table) >= 1 and len(table) <= 64,
                 message="table must be 1 to 64 characters long")
def insert_row(path: str, table: str, row: dict[str, object]) -> None:
    """Insert row (column name to str, int or bool value; every column given) into table; each insert commits alone."""
    sqlitedb.insert_row(path, table, row)
