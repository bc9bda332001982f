"""Durable single-use receipts (03 RCP-2): the ledger's ``consumed_receipts`` table.

The approvals package signs receipts and checks every claim except replay; replay is checked
here, on the ledger file the runs package owns (:mod:`clauz3.runs.ledger_schema`).
:func:`consume` runs inside the caller's transaction so the claim and the ledger's move to
``executing`` commit together.
"""

from __future__ import annotations

import sqlite3
import time
from typing import TYPE_CHECKING

from clauz3.storage.migrations import transaction

if TYPE_CHECKING:  # the bridge reads the ledger: receipts (and cryptography) load only to claim
    from clauz3.approvals.receipts import ReceiptClaims

PRUNE_AFTER_SECONDS = 24 * 3600


def consume(conn: sqlite3.Connection, claims: ReceiptClaims, *, now: float | None = None) -> None:
    """Record the nonce as used; ``receipt_replayed`` if it (or its request id) already was.

    Call inside an open transaction; the constraint violation aborts only this statement.
    """
    stamp = int(time.time() if now is None else now)
    try:
        conn.execute(
            "INSERT INTO consumed_receipts (nonce, request_id, program_sha256, consumed_at, expires_at)"
            " VALUES (?, ?, ?, ?, ?)",
            (claims.nonce, claims.request_id, claims.program_sha256, stamp, claims.expires_at),
        )
    except sqlite3.IntegrityError as exc:
        from clauz3.approvals.receipts import ReceiptError

        raise ReceiptError("receipt_replayed", "receipt was already used") from exc


def consume_now(conn: sqlite3.Connection, claims: ReceiptClaims, *, now: float | None = None) -> None:
    """:func:`consume` in its own transaction (for callers with nothing else to commit with it)."""
    with transaction(conn):
        consume(conn, claims, now=now)


def is_consumed(conn: sqlite3.Connection, nonce: str) -> bool:
    return conn.execute("SELECT 1 FROM consumed_receipts WHERE nonce = ?", (nonce,)).fetchone() is not None


def prune(conn: sqlite3.Connection, *, now: float | None = None) -> int:
    """Drop rows 24 h past their expiry (a replay of those fails ``receipt_expired`` anyway)."""
    cutoff = int(time.time() if now is None else now) - PRUNE_AFTER_SECONDS
    with transaction(conn):
        cursor = conn.execute("DELETE FROM consumed_receipts WHERE expires_at < ?", (cutoff,))
    return cursor.rowcount
