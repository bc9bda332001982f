"""Each SQLite file clauz3 keeps has one owner, one migration list, and no second version record.

Read off the source: a module outside a file's owner that opens it, declares migrations or runs SQL
on its tables fails here, so a second package's list can never again be concatenated into a file.
"""

from __future__ import annotations

import re
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "clauz3"

# file -> (the module holding its one MIGRATIONS list, the owner modules allowed to run SQL on it)
OWNERS: dict[str, tuple[str, set[str]]] = {
    "conversations.sqlite": ("sessions/store/store_schema.py", {"sessions/store/store.py", "sessions/store/store_schema.py"}),
    "recent-workspaces.sqlite": ("sessions/store/recent.py", {"sessions/store/recent.py"}),
    "approval-profiles.sqlite": ("approvals/profiles.py", {"approvals/profiles.py"}),
    "runs.sqlite": ("runs/ledger_schema.py", {"runs/ledger_schema.py", "runs/ledger.py", "runs/nonces.py"}),
}
TABLES = {
    "conversations.sqlite": ("conversations", "messages", "conversation_search"),
    "recent-workspaces.sqlite": ("workspaces",),
    "approval-profiles.sqlite": ("history", "rules"),
    "runs.sqlite": ("runs", "consumed_receipts"),
}
# The user's own project databases (the db library's trusted layer), not a clauz3 store.
USER_DATA = {"stdlib/sqlitedb.py"}


def sources() -> dict[str, str]:
    found = {str(p.relative_to(SRC)): p.read_text(encoding="utf-8") for p in SRC.rglob("*.py")}
    assert len(found) > 100, "the scan found no source"
    return found


def where(pattern: str) -> set[str]:
    rx = re.compile(pattern)
    return {name for name, text in sources().items() if rx.search(text)}


def test_only_owners_declare_migrations_and_open_stores() -> None:
    lists = {owner for owner, _ in OWNERS.values()}
    assert where(r"\bMigration\(") - {"storage/migrations.py"} == lists
    assert where(r"(?m)^MIGRATIONS\b") == lists  # one module-level list per file
    assert where(r"\bopen_store\(") - {"storage/migrations.py"} == {
        "sessions/store/store.py", "sessions/store/recent.py", "approvals/profiles.py", "runs/ledger_schema.py"}


def test_only_owners_connect_or_run_sql_on_a_store() -> None:
    assert where(r"sqlite3\.connect\(") == {"storage/migrations.py", "sessions/store/store.py", *USER_DATA}
    for store, tables in TABLES.items():
        rx = r"\b(FROM|INTO|UPDATE|TABLE)\s+(" + "|".join(tables) + r")\b"
        assert where(rx) - USER_DATA <= OWNERS[store][1], store


def test_user_version_is_no_longer_a_version_record() -> None:
    """The recorded list alone is the version; the only write left clears the old record."""
    assert where(r"execute\(\s*f?[\"']PRAGMA user_version") == {"storage/migrations.py"}
    assert where(r"USER_VERSION") == set()
