"""Group commit of streamed frames (issue 13, stream_10k): one transaction per turn of the event loop,
each frame atomic, every frame durable once the loop is free; on real SQLite files, a second
connection standing in for another process."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from clauz3.sessions.agent.acp_messages import AGENT_METHOD, AgentText, to_frame
from clauz3.sessions.store.store import ConversationStore

A = "/projects/a"


def _committed(data: Path, cid: str) -> int:
    """Frames another process can read now (WAL readers see only committed transactions)."""
    conn = sqlite3.connect(f"file:{data / 'conversations.sqlite'}?mode=ro", uri=True)
    try:
        return int(conn.execute("SELECT count(*) FROM messages WHERE conversation = ?", (cid,)).fetchone()[0])
    finally:
        conn.close()


@pytest.fixture
def data(tmp_path: Path) -> Path:
    path = tmp_path / "data"
    path.mkdir(mode=0o700)
    return path


def test_frames_of_one_loop_turn_commit_together_once_the_loop_is_free(data: Path) -> None:
    store = ConversationStore.open(data, A)
    cid = store.create(agent="demo").id

    async def stream() -> tuple[int, int]:
        for i in range(200):
            assert store.append(cid, turn=1, method=AGENT_METHOD, frame=to_frame(AgentText(f"{i} "))).saved
        during = _committed(data, cid)  # still inside the same turn of the loop
        await asyncio.sleep(0)
        return during, _committed(data, cid)

    during, after = asyncio.run(stream())
    assert (during, after) == (0, 200)
    saved = store.get(cid)
    assert saved is not None and saved.turns == 1 and len(store.history(cid)) == 200
    store.close()


def test_without_an_event_loop_each_frame_is_committed_before_append_returns(data: Path) -> None:
    store = ConversationStore.open(data, A)
    cid = store.create(agent="demo").id
    store.append(cid, turn=1, method=AGENT_METHOD, frame=to_frame(AgentText("x")))
    assert _committed(data, cid) == 1
    store.close()


def test_a_failing_frame_takes_no_other_frame_with_it(data: Path) -> None:
    store = ConversationStore.open(data, A)
    cid = store.create(agent="demo").id

    async def stream() -> None:
        store.append(cid, turn=1, method=AGENT_METHOD, frame=to_frame(AgentText("kept")))
        with pytest.raises(KeyError):
            store.append("0" * 8 + "-0000-4000-8000-" + "0" * 12, turn=1, method=AGENT_METHOD,
                         frame=to_frame(AgentText("lost")))
        store.append(cid, turn=1, method=AGENT_METHOD, frame=to_frame(AgentText("also kept")))
        await asyncio.sleep(0)

    asyncio.run(stream())
    assert _committed(data, cid) == 2
    assert [f["params"]["text"] for f in store.history(cid)] == ["kept", "also kept"]
    store.close()


def test_another_write_commits_the_pending_frames_first(data: Path) -> None:
    store = ConversationStore.open(data, A)
    cid = store.create(agent="demo").id

    async def stream() -> int:
        store.append(cid, turn=1, method=AGENT_METHOD, frame=to_frame(AgentText("x")))
        store.rename(cid, "Renamed")  # its own transaction: the batch is committed before it begins
        return _committed(data, cid)

    assert asyncio.run(stream()) == 1
    saved = store.get(cid)
    assert saved is not None and saved.title == "Renamed"
    store.close()
