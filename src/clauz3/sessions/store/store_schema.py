"""The conversation store's schema (02 STORE-2, STORE-3): ``conversations.sqlite``'s one migration list.

The store (:mod:`clauz3.sessions.store.store`) is the file's only owner; other modules use its API. The
recorded migration names are the file's version (issue 15); files made before that also carry
``PRAGMA user_version = 1``, which ``002_clear_user_version`` clears. Append only.

FTS5 is used when the SQLite build has it; otherwise ``conversation_search`` is a plain table
with the same columns and search falls back to substring matching (STORE-8).
"""

from __future__ import annotations

import sqlite3

from clauz3.storage.migrations import Migration, clear_user_version

_TABLES = """
CREATE TABLE conversations (
    id TEXT PRIMARY KEY,
    project TEXT NOT NULL,
    title TEXT NOT NULL,
    agent TEXT NOT NULL,
    frontend TEXT NOT NULL CHECK (frontend IN ('browser', 'terminal')),
    created REAL NOT NULL,
    updated REAL NOT NULL,
    turns INTEGER NOT NULL DEFAULT 0,
    bytes INTEGER NOT NULL DEFAULT 0,
    state TEXT NOT NULL
);
CREATE INDEX conversations_project_updated ON conversations (project, updated DESC);
CREATE TABLE messages (
    sequence INTEGER PRIMARY KEY AUTOINCREMENT,
    turn INTEGER NOT NULL,
    method TEXT NOT NULL,
    conversation TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
    frame TEXT NOT NULL
);
CREATE INDEX messages_conversation_sequence ON messages (conversation, sequence);
"""


def has_fts5(conn: sqlite3.Connection) -> bool:
    try:
        conn.execute("CREATE VIRTUAL TABLE temp._fts5_probe USING fts5(x)")
    except sqlite3.OperationalError:
        return False
    conn.execute("DROP TABLE temp._fts5_probe")
    return True


def _initial(conn: sqlite3.Connection) -> None:
    for statement in _TABLES.split(";"):
        if statement.strip():
            conn.execute(statement)
    if has_fts5(conn):
        conn.execute(
            "CREATE VIRTUAL TABLE conversation_search USING fts5(title, body, conversation UNINDEXED,"
            " turn UNINDEXED, tokenize = 'unicode61 remove_diacritics 2')"
        )
    else:
        conn.execute("CREATE TABLE conversation_search (title TEXT, body TEXT, conversation TEXT, turn INTEGER)")
        conn.execute("CREATE INDEX conversation_search_conversation ON conversation_search (conversation, turn)")


MIGRATIONS = (
    Migration("001_conversations", _initial),
    Migration("002_clear_user_version", clear_user_version),
)
