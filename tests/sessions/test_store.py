"""The conversation store, leases and recent workspaces on real SQLite files and real flocks."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from clauz3.sessions.agent.acp_messages import AGENT_METHOD, AgentText, ToolCall, message_of, to_frame
from clauz3.sessions.store import store_search
from clauz3.sessions.store.lease import (
    LeaseHeld,
    acquire_conversation_lock,
    acquire_project_lease,
    project_key,
)
from clauz3.sessions.store.recent import RecentWorkspaces
from clauz3.sessions.store.store import ConversationStore, StoreError, frame_text

A, B = "/projects/a", "/projects/b"


def user(turn: int, text: str) -> dict:
    return {"method": "clauz3/user", "params": {"conversation_id": "x", "turn": turn, "text": text, "attachments": []}}


def chunk(text: str) -> dict:
    return to_frame(AgentText(text))


def old_chunk(text: str) -> dict:
    """An agent text chunk as versions before the stable form retained it: the raw ACP frame."""
    return {"jsonrpc": "2.0", "method": "session/update",
            "params": {"sessionId": "s", "update": {"sessionUpdate": "agent_message_chunk",
                                                    "content": {"type": "text", "text": text}}}}


def say(store: ConversationStore, cid: str, turn: int, question: str, answer: str) -> None:
    store.append(cid, turn=turn, method="clauz3/user", frame=user(turn, question))
    store.append(cid, turn=turn, method=AGENT_METHOD, frame=chunk(answer))
    store.index_turn(cid, turn)


@pytest.fixture
def data(tmp_path: Path) -> Path:
    path = tmp_path / "data"
    path.mkdir(mode=0o700)
    return path


def test_schema_wal_permissions_and_integrity(data: Path) -> None:
    store = ConversationStore.open(data, A)
    cid = store.create(agent="demo").id
    say(store, cid, 1, "hello", "hi")
    db = data / "conversations.sqlite"
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    # issue 15: the recorded migration list alone is the version; no second record in user_version
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 0
    assert [r[0] for r in conn.execute("SELECT name FROM _migrations ORDER BY id")] == [
        "001_conversations", "002_clear_user_version"]
    conn.close()
    for path in (db, data / "conversations.sqlite-wal", data / "conversations.sqlite-shm"):
        assert path.stat().st_mode & 0o777 == 0o600
    assert store.integrity_ok()
    assert store.fts  # this SQLite build has FTS5


def test_transcripts_saved_with_raw_acp_frames_load_in_the_stable_form(data: Path) -> None:
    store = ConversationStore.open(data, A)
    cid = store.create(agent="demo").id
    store.append(cid, turn=1, method="clauz3/user", frame=user(1, "question"))
    store.append(cid, turn=1, method="session/update", frame=old_chunk("an old answer"))
    tool = {"jsonrpc": "2.0", "method": "session/update", "params": {"sessionId": "s", "update": {
        "sessionUpdate": "tool_call", "toolCallId": "t1", "title": "clauz3.run", "status": "pending",
        "rawInput": {"source": "x"}, "content": [{"type": "content", "content": {"type": "text", "text": "out"}}]}}}
    store.append(cid, turn=1, method="session/update", frame=tool)
    store.append(cid, turn=1, method="session/update", frame={"method": "session/update", "params": {"update": []}})
    store.index_turn(cid, 1)
    history = store.history(cid)
    assert [f["method"] for f in history] == ["clauz3/user", AGENT_METHOD, AGENT_METHOD]  # unreadable one dropped
    assert history[1]["params"] == {"kind": "text", "text": "an old answer"}
    call = message_of(history[2])
    assert isinstance(call, ToolCall) and call.tool_call_id == "t1" and call.raw_input == {"source": "x"}
    assert call.text == "out" and call.shown_tool == "run" and call.tool is None  # a title never makes it trusted
    assert [s.id for s in store.search("old answer")] == [cid]


def test_append_history_and_counters(data: Path) -> None:
    store = ConversationStore.open(data, A)
    conv = store.create(agent="demo", state={"mode": "restricted"})
    say(store, conv.id, 1, "first", "one")
    say(store, conv.id, 2, "second", "two")
    saved = store.get(conv.id)
    assert saved is not None and saved.turns == 2
    assert saved.bytes == sum(len(frame_text(f).encode()) for f in store.history(conv.id))
    assert [f["method"] for f in store.history(conv.id)] == ["clauz3/user", AGENT_METHOD] * 2
    assert store.set_state(conv.id, {"mode": "restricted"}) is False  # unchanged: not rewritten
    assert store.set_state(conv.id, {"mode": "restricted", "model": "x"}) is True


def test_projects_cannot_see_each_other(data: Path) -> None:
    a = ConversationStore.open(data, A)
    b = ConversationStore.open(data, B)
    cid = a.create(agent="demo").id
    say(a, cid, 1, "invoice", "ok")
    assert b.get(cid) is None
    assert b.history(cid) == []
    assert b.rename(cid, "mine") is False
    assert b.delete(cid) is False
    assert b.search("invoice") == []
    assert b.listing()[0] == []
    assert a.get(cid) is not None and a.get(cid).title == "New conversation"


def test_search_finds_later_turn_assistant_text_and_is_injection_safe(data: Path) -> None:
    store = ConversationStore.open(data, A)
    cid = store.create(agent="demo").id
    say(store, cid, 1, "hello there", "hi")
    say(store, cid, 2, "what next", "Here are the invoices for March")
    other = store.create(agent="demo").id
    say(store, other, 1, "nothing relevant", "nope")
    hits = store.search("invoice")
    assert [h.id for h in hits] == [cid]
    assert "invoices" in (hits[0].snippet or "") and len(hits[0].snippet or "") <= 160
    for hostile in ('"', "*", "OR (", "NEAR(a b)", 'a" OR "b'):
        store.search(hostile)  # never raises: input is never FTS5 syntax
    assert store.search("!!! ???") == []
    with pytest.raises(store_search.BadQuery):
        store.search("x" * 201)
    with pytest.raises(store_search.BadQuery):
        store.search("   ")


def test_search_by_title_after_rename(data: Path) -> None:
    store = ConversationStore.open(data, A)
    cid = store.create(agent="demo").id
    say(store, cid, 1, "a", "b")
    store.rename(cid, "Quarterly budget")
    assert [h.id for h in store.search("quarter")] == [cid]


def test_transcript_limit_stops_retaining_and_survives_restart(data: Path) -> None:
    store = ConversationStore.open(data, A, limit_bytes=2_000)
    cid = store.create(agent="demo").id
    results = [store.append(cid, turn=1, method=AGENT_METHOD, frame=chunk("x" * 200)) for _ in range(20)]
    saved = [r.saved for r in results]
    assert saved[0] and not saved[-1]
    assert sum(r.limit_reached for r in results) == 1  # one storage_limit_reached notice
    kept = len(store.history(cid))
    assert kept == saved.count(True)
    assert store.get(cid).bytes <= 2_000
    store.close()
    reopened = ConversationStore.open(data, A, limit_bytes=2_000)
    assert reopened.get(cid).history_limited
    later = reopened.append(cid, turn=2, method=AGENT_METHOD, frame=chunk("y"), state={"turn": 2})
    assert later.saved is False and later.limit_reached is False
    assert reopened.get(cid).state == {"turn": 2, "history_limited": True}
    assert len(reopened.history(cid)) == kept


def test_listing_latest_prune_and_delete(data: Path) -> None:
    store = ConversationStore.open(data, A)
    empty = store.create(agent="demo").id
    used = store.create(agent="demo").id
    say(store, used, 1, "q", "a")
    current = store.create(agent="demo").id
    listed, truncated = store.listing(current=current)
    assert [s.id for s in listed] == [current, used] and not truncated
    assert store.latest().id == current
    assert store.prune_empty(keep=current) == 1
    assert store.get(empty) is None
    assert store.delete(used) and store.search("q") == []


def test_newer_version_and_corrupt_file_are_refused_unchanged(data: Path) -> None:
    ConversationStore.open(data, A).close()
    db = data / "conversations.sqlite"
    conn = sqlite3.connect(db)
    conn.execute("INSERT INTO _migrations (name) VALUES ('999_from_a_newer_clauz3')")
    conn.commit()
    conn.close()
    before = db.read_bytes()
    with pytest.raises(StoreError) as newer:
        ConversationStore.open(data, A)
    assert newer.value.code == "store_incompatible" and db.read_bytes() == before
    db.write_bytes(before[:1000])
    for suffix in ("-wal", "-shm"):
        (data / f"conversations.sqlite{suffix}").unlink(missing_ok=True)
    with pytest.raises(StoreError) as corrupt:
        ConversationStore.open(data, A)
    assert corrupt.value.code == "store_unreadable" and db.read_bytes() == before[:1000]


def test_symlinked_store_is_refused(data: Path, tmp_path: Path) -> None:
    target = tmp_path / "elsewhere.sqlite"
    target.write_bytes(b"")
    (data / "conversations.sqlite").symlink_to(target)
    with pytest.raises(StoreError) as err:
        ConversationStore.open(data, A)
    assert err.value.code == "store_unreadable"


def test_bad_ids_are_unknown(data: Path) -> None:
    store = ConversationStore.open(data, A)
    cid = store.create(agent="demo").id
    assert store.get(cid.upper()) is None
    assert store.get(cid.replace("-", "")) is None
    assert store.get("../etc/passwd") is None


HOLD = """
import sys, time
from pathlib import Path
from clauz3.sessions.store.lease import acquire_project_lease
lease = acquire_project_lease(Path(sys.argv[1]), sys.argv[2], port=4321)
print("held", flush=True)
sys.stdin.read()
"""


def test_project_lease_conflict_names_port_and_frees_on_exit(data: Path) -> None:
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(data), A], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        with pytest.raises(LeaseHeld) as held:
            acquire_project_lease(data, A, port=1)
        assert held.value.port == 4321
        other = acquire_project_lease(data, B, port=2)  # another project is independent
        other.release()
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait(timeout=90)
    lease = acquire_project_lease(data, A, port=5)
    path = data / "locks" / f"workspace-{project_key(A)}.lock"
    assert path.stat().st_mode & 0o777 == 0o600
    lease.release()


def test_conversation_lock_is_exclusive(data: Path) -> None:
    cid = "0b4c3a52-6f1e-4d2a-9c55-0d3f2b1a7e99"
    with acquire_conversation_lock(data, cid):
        with pytest.raises(LeaseHeld):
            acquire_conversation_lock(data, cid)
    acquire_conversation_lock(data, cid).release()


def test_recent_workspaces(data: Path, tmp_path: Path) -> None:
    first, second = tmp_path / "one", tmp_path / "two"
    first.mkdir()
    second.mkdir()
    recents = RecentWorkspaces(data)
    assert recents.record(str(first)) and recents.record(str(second))
    assert recents.record(str(data / "tutorials" / "email")) is False
    assert [r.path for r in recents.recent()] == [str(second), str(first)]
    recents.record(str(first))
    second.rmdir()
    listed = recents.recent()
    assert listed[0].path == str(first) and listed[0].name == "one"
    assert listed[1].available is False
    assert (data / "recent-workspaces.sqlite").stat().st_mode & 0o777 == 0o600


def test_search_without_fts5_has_the_same_shape(data: Path) -> None:
    store = ConversationStore.open(data, A)
    cid = store.create(agent="demo").id
    say(store, cid, 1, "hello", "the invoices are ready")
    store.fts = False  # the substring fallback of STORE-8 over the same rows
    hits = store.search("INVOICE")
    assert [h.id for h in hits] == [cid] and "invoices" in (hits[0].snippet or "")
    assert store.search("100%_") == []
