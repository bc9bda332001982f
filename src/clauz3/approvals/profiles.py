"""Remembered approvals (03 §9.2–9.6): ``<data>/approval-profiles.sqlite``, scoped per project."""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from clauz3.approvals.decisions import REMEMBERABLE, is_approving
from clauz3.approvals.errors import ApprovalError
from clauz3.approvals.requests import iso
from clauz3.storage.migrations import Migration, MigrationError, clear_user_version, open_store, transaction
from clauz3.storage.paths import canonical_project, profiles_path
from clauz3.storage.secretfiles import ensure_private_dir

# PRO-2: the only record fields history keeps; never receipts, tokens or keys.
HISTORY_FIELDS = ("request_id", "program", "program_sha256", "target", "guarantees", "coverage", "proofs",
                  "trusted_roots", "import_roots", "presentation")


def _schema(conn: sqlite3.Connection) -> None:
    conn.execute(
        "CREATE TABLE history (id TEXT PRIMARY KEY, project TEXT NOT NULL, created REAL NOT NULL,"
        " signature TEXT NULL, basis TEXT NULL, record TEXT NOT NULL, decision TEXT NULL,"
        " decided_by TEXT NULL, rule_id TEXT NULL)"
    )
    conn.execute("CREATE INDEX history_project_created ON history (project, created)")
    conn.execute(
        "CREATE TABLE rules (id TEXT PRIMARY KEY, project TEXT NOT NULL, signature TEXT NOT NULL,"
        " effect TEXT NOT NULL CHECK (effect IN ('allow','deny')),"
        " enabled INTEGER NOT NULL CHECK (enabled IN (0,1)), history_id TEXT UNIQUE, created REAL NOT NULL)"
    )
    conn.execute("CREATE INDEX rules_match ON rules (project, signature, enabled)")


# The file's one migration list (this module is its only owner); the recorded names are its version.
# Files made before that also carry ``PRAGMA user_version = 1``, cleared by the second step. Append only.
MIGRATIONS: tuple[Migration, ...] = (
    Migration("profiles-0001-history-rules", _schema),
    Migration("profiles-0002-clear-user-version", clear_user_version),
)


class ProfilesUnavailable(ApprovalError):
    """The store has another schema version or cannot be opened; profiles are off, visibly."""

    def __init__(self, message: str) -> None:
        super().__init__("profiles_unavailable", message)


@dataclass(frozen=True)
class RuleMatch:
    rule_id: str
    effect: str
    history_id: str | None


class ProfileStore:
    def __init__(self, path: Path) -> None:
        self.path = path
        ensure_private_dir(path.parent)
        try:  # a newer file (unknown recorded migrations) disables profiles, never is migrated over
            self._conn = open_store(path, MIGRATIONS)
        except (MigrationError, sqlite3.DatabaseError) as exc:
            raise ProfilesUnavailable(f"approval profiles disabled: {path}: {exc}") from exc
        self._lock = threading.Lock()

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    # ---------------------------------------------------------------------------------- matching

    def match(self, project: str, signature: str) -> RuleMatch | None:
        """PRO-8: enabled rules with equal project and signature; deny before allow; older first."""
        with self._lock:
            row = self._conn.execute(
                "SELECT id, effect, history_id FROM rules WHERE project = ? AND signature = ? AND enabled = 1"
                " ORDER BY CASE effect WHEN 'deny' THEN 0 ELSE 1 END, created, id LIMIT 1",
                (project, signature),
            ).fetchone()
        return RuleMatch(row[0], row[1], row[2]) if row else None

    def matches(self, project: str, signature: str) -> tuple[RuleMatch | None, RuleMatch | None]:
        """(oldest enabled deny, oldest enabled allow) for the precedence of §7."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT id, effect, history_id FROM rules WHERE project = ? AND signature = ? AND enabled = 1"
                " ORDER BY created, id", (project, signature),
            ).fetchall()
        deny = next((RuleMatch(*r) for r in rows if r[1] == "deny"), None)
        allow = next((RuleMatch(*r) for r in rows if r[1] == "allow"), None)
        return deny, allow

    def approved_effects(self, project: str, history_id: str | None) -> frozenset[str] | None:
        """The effects the remembered decision's program could perform, as its card's proof listed them
        (issue 19: a remembered approval covers exactly those); None when the row does not say."""
        if history_id is None:
            return None
        try:
            with self._lock:
                row = self._conn.execute(
                    "SELECT json_extract(record, '$.presentation.proof.effects') FROM history WHERE id = ?"
                    " AND project = ?", (history_id, project)).fetchone()
            listed = json.loads(row[0]) if row is not None and isinstance(row[0], str) else None
        except sqlite3.OperationalError:  # an SQLite without JSON functions: read the kept record whole
            with self._lock:
                row = self._conn.execute("SELECT record FROM history WHERE id = ? AND project = ?",
                                         (history_id, project)).fetchone()
            try:
                record = json.loads(row[0]) if row is not None else {}
                listed = ((record.get("presentation") or {}).get("proof") or {}).get("effects")
            except (ValueError, AttributeError):
                return None
        except ValueError:
            return None
        if not isinstance(listed, list) or not all(isinstance(n, str) for n in listed):
            return None
        return frozenset(listed)

    def allow_rules(self, project: str) -> list[tuple[RuleMatch, dict[str, Any], dict[str, Any]]]:
        """Every enabled allow rule of ``project`` with its decision's basis and kept record, newest first
        (issue 12: a remembered approval also covers programs proved at least as strict)."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT r.id, r.effect, r.history_id, h.basis, h.record FROM rules r JOIN history h"
                " ON h.id = r.history_id WHERE r.project = ? AND r.effect = 'allow' AND r.enabled = 1"
                " AND h.basis IS NOT NULL ORDER BY r.created DESC, r.id DESC", (project,),
            ).fetchall()
        return [(RuleMatch(r[0], r[1], r[2]), json.loads(r[3]), json.loads(r[4])) for r in rows]

    # ---------------------------------------------------------------------------------- history

    def append(self, *, project: str, record: dict[str, Any], signature: str | None,
               basis: dict[str, Any] | None, decision: str | None, decided_by: str | None,
               rule_id: str | None = None, remember: bool = False) -> tuple[str, str | None]:
        """PRO-10: one history row; with ``remember`` also its rule, in one transaction.

        Returns (history id, rule id created now or None).
        """
        history_id = "hst_" + secrets.token_hex(12)
        kept = json.dumps({k: record[k] for k in HISTORY_FIELDS if k in record}, sort_keys=True)
        now = time.time()
        new_rule: str | None = None
        with self._lock, transaction(self._conn):
            if remember:
                if signature is None or decision is None:
                    raise ApprovalError("not_rememberable", "this record cannot be remembered")
                new_rule = "rul_" + secrets.token_hex(12)
                rule_id = new_rule
            self._conn.execute(
                "INSERT INTO history (id, project, created, signature, basis, record, decision, decided_by,"
                " rule_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (history_id, project, now, signature,
                 json.dumps(basis, sort_keys=True) if basis is not None else None,
                 kept, decision, decided_by, rule_id),
            )
            if new_rule is not None and decision is not None and signature is not None:
                effect = "allow" if is_approving(decision) else "deny"
                self._conn.execute(
                    "INSERT INTO rules (id, project, signature, effect, enabled, history_id, created)"
                    " VALUES (?, ?, ?, ?, 1, ?, ?)", (new_rule, project, signature, effect, history_id, now),
                )
        return history_id, new_rule

    def remember(self, project: str, history_id: str) -> str:
        """PRO-11: promote a past human decision; idempotent (re-enables the same rule)."""
        with self._lock, transaction(self._conn):
            row = self._conn.execute(
                "SELECT signature, decision, decided_by FROM history WHERE id = ? AND project = ?",
                (history_id, project),
            ).fetchone()
            if row is None:
                raise ApprovalError("not_found", "no such history entry")
            signature, decision, decided_by = row
            if signature is None or decided_by != "human" or decision not in REMEMBERABLE:
                raise ApprovalError("not_rememberable", "this decision cannot be remembered")
            existing = self._conn.execute("SELECT id FROM rules WHERE history_id = ?", (history_id,)).fetchone()
            if existing is not None:
                self._conn.execute("UPDATE rules SET enabled = 1 WHERE id = ?", (existing[0],))
                return str(existing[0])
            rule_id = "rul_" + secrets.token_hex(12)
            effect = "allow" if is_approving(decision) else "deny"
            self._conn.execute(
                "INSERT INTO rules (id, project, signature, effect, enabled, history_id, created)"
                " VALUES (?, ?, ?, ?, 1, ?, ?)", (rule_id, project, signature, effect, history_id, time.time()),
            )
            return rule_id

    def disable(self, project: str, rule_id: str) -> None:
        with self._lock, transaction(self._conn):
            cursor = self._conn.execute("UPDATE rules SET enabled = 0 WHERE id = ? AND project = ?",
                                        (rule_id, project))
            if cursor.rowcount == 0:
                raise ApprovalError("not_found", "no such rule")

    def forget_project(self, project: str) -> None:
        """TUT-3: drop every remembered rule and history row of ``project``, in one transaction."""
        with self._lock, transaction(self._conn):
            self._conn.execute("DELETE FROM rules WHERE project = ?", (project,))
            self._conn.execute("DELETE FROM history WHERE project = ?", (project,))

    def snapshot(self, project: str, limit: int = 200) -> dict[str, Any]:
        with self._lock:
            rules = self._conn.execute(
                "SELECT id, signature, effect, enabled, history_id, created FROM rules WHERE project = ?"
                " ORDER BY created DESC, id DESC LIMIT ?", (project, limit),
            ).fetchall()
            history = self._conn.execute(
                "SELECT id, created, signature, record, decision, decided_by, rule_id FROM history"
                " WHERE project = ? ORDER BY created DESC, id DESC LIMIT ?", (project, limit),
            ).fetchall()
        return {
            "project": project,
            "rules": [{"id": r[0], "signature": r[1], "effect": r[2], "enabled": bool(r[3]), "history_id": r[4],
                       "created": iso(r[5])} for r in rules],
            "history": [{"id": h[0], "created": iso(h[1]), "signature": h[2], "record": json.loads(h[3]),
                         "decision": h[4], "decided_by": h[5], "rule_id": h[6]} for h in history],
        }


def forget_project(data: Path, project: str | os.PathLike[str]) -> None:
    """:meth:`ProfileStore.forget_project` on ``<data>/approval-profiles.sqlite`` for a caller without an
    authority. No store (or a symlink) means nothing to forget; a store of another schema version is
    left alone, as the authority would leave it."""
    path = profiles_path(data)
    if not path.is_file() or path.is_symlink():
        return
    try:
        store = ProfileStore(path)
    except ProfilesUnavailable:
        return
    try:
        store.forget_project(canonical_project(project))
    finally:
        store.close()
