"""Stores written by an older clauz3 (tests/storage/fixtures, made at commit 50e089c) open today.

Each SQLite file has one owner and one migration list; an old file is brought up to that list by
name, keeps its rows, loses its ``PRAGMA user_version`` (the recorded list is the only version),
and a step appended later to the owner's list still opens it.
"""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Sequence
from pathlib import Path

import pytest

from clauz3.approvals.profiles import MIGRATIONS as PROFILE_MIGRATIONS
from clauz3.approvals.profiles import ProfileStore
from clauz3.approvals.receipts import ReceiptClaims, ReceiptError
from clauz3.runs.ledger import Ledger
from clauz3.runs.ledger_schema import MIGRATIONS as LEDGER_MIGRATIONS
from clauz3.sessions.store.recent import MIGRATIONS as RECENT_MIGRATIONS
from clauz3.sessions.store.recent import RecentWorkspaces
from clauz3.sessions.store.store import ConversationStore
from clauz3.sessions.store.store_schema import MIGRATIONS as STORE_MIGRATIONS
from clauz3.sessions.terminal import terminal_records
from clauz3.storage.migrations import Migration, open_store

FIXTURES = Path(__file__).parent / "fixtures"
OLD_CONVERSATION = "11111111-1111-4111-8111-111111111111"
LISTS: dict[str, Sequence[Migration]] = {
    "conversations.sqlite": STORE_MIGRATIONS,
    "recent-workspaces.sqlite": RECENT_MIGRATIONS,
    "approval-profiles.sqlite": PROFILE_MIGRATIONS,
    "runs.sqlite": LEDGER_MIGRATIONS,
}


@pytest.fixture
def data(tmp_path: Path) -> Path:
    home = tmp_path / "data"
    home.mkdir(mode=0o700)
    for name in LISTS:
        shutil.copyfile(FIXTURES / name, home / name)
        (home / name).chmod(0o600)
    return home


def recorded(path: Path) -> tuple[list[str], int]:
    conn = sqlite3.connect(path)
    try:
        names = [r[0] for r in conn.execute("SELECT name FROM _migrations ORDER BY id")]
        return names, conn.execute("PRAGMA user_version").fetchone()[0]
    finally:
        conn.close()


def test_fixtures_are_the_old_format() -> None:
    """Guards the fixtures themselves: two of them carry the second version record being dropped."""
    assert recorded(FIXTURES / "conversations.sqlite") == (["001_conversations"], 1)
    assert recorded(FIXTURES / "approval-profiles.sqlite") == (["profiles-0001-history-rules"], 1)
    assert recorded(FIXTURES / "runs.sqlite") == (["approvals-0001-consumed-receipts", "runs-0001-runs"], 0)


def test_old_conversation_store_opens_with_its_rows(data: Path) -> None:
    store = ConversationStore.open(data, "/project")
    try:
        row = store.get(OLD_CONVERSATION)
        assert row is not None and row.agent == "demo" and row.state == {"mode": "restricted"}
        assert [f["params"]["text"] for f in store.history(OLD_CONVERSATION)] == ["hello old store"]
        assert [hit.id for hit in store.search("hello")] == [OLD_CONVERSATION]
    finally:
        store.close()
    assert recorded(data / "conversations.sqlite") == ([m.name for m in STORE_MIGRATIONS], 0)
    # the terminal's read-only lookups go through the store's API and see the same row
    assert terminal_records.project_of(data, OLD_CONVERSATION) == "/project"
    assert [c.id for c in terminal_records.list_conversations(data, "/project")] == [OLD_CONVERSATION]


def test_old_recent_workspaces_and_profiles_open(data: Path) -> None:
    recent = RecentWorkspaces(data)
    try:
        assert [w.path for w in recent.recent()] == ["/project"]
    finally:
        recent.close()
    profiles = ProfileStore(data / "approval-profiles.sqlite")
    try:
        assert profiles.snapshot("/project")["history"] == []
    finally:
        profiles.close()
    assert recorded(data / "approval-profiles.sqlite") == ([m.name for m in PROFILE_MIGRATIONS], 0)


def test_old_run_ledger_opens_and_its_consumed_receipt_stays_consumed(data: Path) -> None:
    ledger = Ledger(data / "runs.sqlite")
    try:
        row = ledger.get("req-1")
        assert row is not None and row["phase"] == "executing" and row["receipt_nonce"] == "nonce-1"
        replay = ReceiptClaims(kid="k", request_id="req-2", program_sha256="s" * 64, consent_sha256="c" * 64,
                               decision="approve_once", nonce="nonce-1", issued_at=0, expires_at=2**40,
                               workspace_generation=None, project_sha256="x" * 64)
        with pytest.raises(ReceiptError) as replayed:
            ledger.claim("req-1", replay, decision="approve_once")
        assert replayed.value.code == "receipt_replayed"
    finally:
        ledger.close()


@pytest.mark.parametrize("name", sorted(LISTS))
def test_a_step_appended_to_the_owner_list_opens_the_old_file(data: Path, name: str) -> None:
    path = data / name
    appended = Migration("9999-appended-later", "CREATE TABLE appended_later (x INTEGER);")
    conn = open_store(path, [*LISTS[name], appended])
    try:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert "appended_later" in tables
    finally:
        conn.close()
    assert recorded(path)[0] == [*[m.name for m in LISTS[name]], "9999-appended-later"]
