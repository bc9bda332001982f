"""Issue 22: the Markdown export keys tool rows by (turn, id) — an agent restarted by a resume may reuse
an id, and the second turn's row must not be merged into the first's — and shows each run card in its
turn with its guarantees, decision and outcome."""

from __future__ import annotations

from clauz3.runs.records import Phase, RunRecord
from clauz3.sessions.agent.acp_messages import ToolCall, to_frame
from clauz3.sessions.conversation.export import as_markdown
from clauz3.sessions.conversation.runs import ConversationRun
from clauz3.sessions.conversation.saved_state import SavedState


def tool(call_id: str, title: str, status: str) -> dict:
    return to_frame(ToolCall(call_id, False, title, status, "run", None, None))


def user(turn: int, text: str) -> dict:
    return {"method": "clauz3/user", "params": {"turn": turn, "text": text, "attachments": []}}


def test_tool_rows_are_keyed_by_turn_and_id_and_cards_sit_in_their_turn() -> None:
    record = RunRecord("req-2", phase=Phase.COMPLETED, source_name="program.py",
                       approval={"state": "approved", "decision": "approved_once", "decided_by": "human",
                                 "feedback": None},
                       summary={"kind": "outcome", "sentences": ["Sent 1 email to bob@example.com."]})
    state = SavedState(runs=[ConversationRun(record, turn=2)]).to_json()
    history = [user(1, "first"), tool("run-1", "Run program", "failed"), {"method": "clauz3/turn_end", "params": {"turn": 1}},
               user(2, "second"), tool("run-1", "Run program", "completed"), {"method": "clauz3/turn_end", "params": {"turn": 2}}]
    presentations = {"req-2": {"summary": {"plan": {"sentences": ["Will send 1 email."]},
                                           "guarantees": [{"text": "Every email goes to bob@example.com."}]}}}
    text = as_markdown(title="t", project="/p", agent="demo", model=None, state=state, history=history,
                       presentations=presentations)
    assert "- Run program — failed" in text and "- Run program — completed" in text
    first, second = text.split("## You")[1:]
    assert "### Run" not in first
    assert "### Run program.py" in second
    for part in ("Plan: Will send 1 email.", "- Every email goes to bob@example.com.", "Decision: Approved once by you",
                 "Outcome: Ran: Sent 1 email to bob@example.com."):
        assert part in second, (part, text)
