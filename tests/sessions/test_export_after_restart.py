"""Issue 22 item 10, after a restart: the Markdown export keeps each card's plan and proved guarantees.

The authority's approval records live only while the service runs; the run keeps the words of its card
(``RunCard``) in the conversation's saved state, so an export made by the next service on the same data
folder still lists what the person approved. Real host, demo agent, MCP bridge, prover and worker.
"""

from __future__ import annotations

from pathlib import Path

from sessions_harness import running_service
from test_provenance_flow import EMAIL_HEAD, conversation, decide, next_record, program, prompt, turn_end

ACT = (EMAIL_HEAD + "@clauz3.guarantee(email.only(addresses=['bob@example.com']))\n"
       "@clauz3.guarantee(email.at_most(count=1))\n"
       "def main() -> None:\n    send_email('bob@example.com', 'Hi Bob')\n")


async def _markdown(svc, cid: str) -> str:
    async with svc.client(cookies=svc.cookies()) as c:
        response = await c.get("/api/chat/transcript", params={"id": cid, "format": "markdown"})
    assert response.status_code == 200, response.text
    return response.text


async def test_export_keeps_the_cards_guarantees_after_a_restart(tmp_path: Path) -> None:
    async with running_service(tmp_path, bridge=None) as svc:
        await svc.login()
        project = Path(svc.host.project)
        ws, cid = await conversation(svc)
        await prompt(ws, cid, program(ACT))
        record = await next_record(ws, set())
        guarantees = [g["text"] for g in record["presentation"]["summary"]["guarantees"]]
        assert guarantees, record["presentation"]["summary"]
        await decide(svc, record, "approved_once")
        await turn_end(ws)
        before = await _markdown(svc, cid)
        await ws.close()
    async with running_service(tmp_path, bridge=None, project=project) as svc:
        await svc.login()
        assert not svc.host.authority.list(conversation_id=cid, limit=10)  # the records are gone
        after = await _markdown(svc, cid)
    for text in (before, after):
        assert "Proved guarantees:" in text, text
        for line in guarantees:
            assert f"- {line}" in text, (line, text)
        assert "Decision: Approved once by you" in text, text
