"""Issue 22: history search answers a term common to most turns from a bounded scan of the newest
matches (newest conversation first), and ranks a rare term's matches exactly (bm25), on real SQLite."""

from __future__ import annotations

from pathlib import Path

import pytest

from clauz3.sessions.agent.acp_messages import AGENT_METHOD, AgentText, to_frame
from clauz3.sessions.store import store_search
from clauz3.sessions.store.store import ConversationStore

A, B = "/projects/a", "/projects/b"


def say(store: ConversationStore, cid: str, turn: int, question: str, answer: str) -> None:
    store.append(cid, turn=turn, method="clauz3/user",
                 frame={"method": "clauz3/user", "params": {"turn": turn, "text": question, "attachments": []}})
    store.append(cid, turn=turn, method=AGENT_METHOD, frame=to_frame(AgentText(answer)))
    store.index_turn(cid, turn)


@pytest.fixture
def data(tmp_path: Path) -> Path:
    path = tmp_path / "data"
    path.mkdir(mode=0o700)
    return path


def test_common_term_lists_the_newest_conversations_first(data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store_search, "RECENT_SCAN", 4)
    monkeypatch.setattr(store_search, "MAX_RESULTS", 3)
    store = ConversationStore.open(data, A)
    other = ConversationStore.open(data, B)
    if not store.fts:
        pytest.skip("this SQLite has no FTS5: search uses the substring fallback")
    made = []
    for i in range(6):
        cid = store.create(agent="demo").id
        # Older conversations say "the" more often: an exact bm25 ranking would put them first.
        say(store, cid, 1, "the " * (8 - i) + f"plan number {i}", "answer")
        made.append(cid)
        noise = other.create(agent="demo").id  # another project's turns fill part of the bounded scan
        say(other, noise, 1, "the other project", "the same words")
    hits = store.search("the")
    assert [h.id for h in hits] == list(reversed(made))[:3]
    assert all("the" in (h.snippet or "") for h in hits)
    assert {h.id for h in other.search("the")}.isdisjoint(made)
    # A prefix the whole word cannot answer still finds longer words ("then" for "the" → "thenceforth").
    late = store.create(agent="demo").id
    say(store, late, 1, "thenceforth", "ok")
    assert late in [h.id for h in store.search("thenceforth")]
    store.close()
    other.close()


def test_rare_term_keeps_exact_ranking(data: Path) -> None:
    store = ConversationStore.open(data, A)
    if not store.fts:
        pytest.skip("this SQLite has no FTS5: search uses the substring fallback")
    strong = store.create(agent="demo").id
    say(store, strong, 1, "invoice invoice invoice", "the invoice again: invoice")
    weak = store.create(agent="demo").id  # newer, but mentions it once among many words
    say(store, weak, 1, "a long message " * 20 + "invoice", "ok")
    assert [h.id for h in store.search("invoice")] == [strong, weak]
    store.close()
