"""The run ledger file's one migration list: ``<data>/workspaces/<sha256(project)>/runs.sqlite``.

The runs package owns this file (issue 15: one owner, one ordered list per SQLite file). It holds
the runs table and the ``consumed_receipts`` table of single-use receipt nonces (03 RCP-2), so the
worker's claim — consume the nonce and move the row to ``executing`` — commits in one transaction
on one file. Names are recorded in the file and never change: the first one keeps the
``approvals-`` prefix it had when the approvals package declared that table. Append only.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from clauz3.storage.migrations import Migration, open_store

MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        "approvals-0001-consumed-receipts",
        """
        CREATE TABLE consumed_receipts (
            nonce TEXT PRIMARY KEY,
            request_id TEXT UNIQUE,
            program_sha256 TEXT NOT NULL,
            consumed_at INTEGER NOT NULL,
            expires_at INTEGER NOT NULL
        );
        CREATE INDEX consumed_receipts_expires ON consumed_receipts (expires_at);
        """,
    ),
    Migration(
        "runs-0001-runs",
        """
        CREATE TABLE runs (
            request_id TEXT PRIMARY KEY,
            project TEXT NOT NULL,
            conversation_id TEXT,
            payload_sha256 TEXT NOT NULL,
            source_sha256 TEXT NOT NULL,
            phase TEXT NOT NULL,
            reason TEXT,
            exit_code INTEGER,
            attempt INTEGER NOT NULL DEFAULT 1,
            decision TEXT,
            receipt_nonce TEXT,
            sandbox TEXT,
            created_at REAL NOT NULL,
            updated_at REAL NOT NULL,
            stdout_head TEXT,
            stderr_head TEXT,
            effects TEXT,
            record TEXT
        );
        CREATE INDEX runs_updated ON runs (updated_at);
        """,
    ),
)


def open_ledger(path: Path) -> sqlite3.Connection:
    """Open (creating 0600 in a 0700 directory) and migrate a run ledger file."""
    return open_store(path, MIGRATIONS)
