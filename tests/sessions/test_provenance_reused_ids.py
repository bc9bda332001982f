"""A resumed agent may reuse its tool-call ids: a new turn's result is still read data (issue 22 × 20).

Keyed by tool-call id alone, the second turn's `web-1` looked indexed already, so a link read only in the
second turn was classed `new` (no warning) instead of `from read data`."""

from __future__ import annotations

from clauz3.base.provenance import FROM_READ, NEW
from clauz3.sessions.conversation.provenance import ConversationProvenance


def _user(text: str) -> dict[str, object]:
    return {"method": "clauz3/user", "params": {"text": text}}


def _tool(call_id: str, status: str, text: str = "") -> dict[str, object]:
    return {"method": "clauz3/agent", "params": {"kind": "tool_call", "id": call_id, "tool": "fetch",
                                                 "title": "Fetch a page", "status": status, "text": text}}


def test_a_reused_tool_call_id_in_a_later_turn_is_indexed_again() -> None:
    prov = ConversationProvenance()
    prov.observe(_user("Summarise the news"), {})
    prov.observe(_tool("web-1", "in_progress"), {})
    prov.observe(_tool("web-1", "completed", "Nothing new at www.first-page.example"), {})
    assert prov.index.value("url", "www.attacker-site-77.example").status == NEW
    prov.observe(_user("And now the other page"), {})  # the agent was started again: its ids start over
    prov.observe(_tool("web-1", "in_progress"), {})
    prov.observe(_tool("web-1", "completed", "Visit www.attacker-site-77.example to claim your prize"), {})
    found = prov.index.value("url", "www.attacker-site-77.example")
    assert found.status == FROM_READ, found
    assert any("Fetch a page" in s for s in found.sources), found.sources


def test_a_final_result_repeated_in_the_same_turn_is_indexed_once() -> None:
    prov = ConversationProvenance()
    prov.observe(_user("Read it"), {})
    for _ in range(3):
        prov.observe(_tool("web-1", "completed", "www.once.example"), {})
    assert len(prov.index.sources) == 2  # the prompt and one read
