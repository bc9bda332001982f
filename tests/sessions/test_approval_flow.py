"""The tutorial flow up to a Completed run through the host: the demo agent, the real bridge, prover and
worker (run records pushed over the lifetime socket, DEC-5), the in-process authority (cards pushed),
and a decision over HTTP with the session cookie (02 UI-20, 03 API-4)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sessions_harness import Harness, recv, recv_until, signed_in, state_is

from clauz3.tutorials import EMAIL

STARTER = EMAIL.starters[0].text


@pytest.fixture
async def svc(tmp_path: Path) -> AsyncIterator[Harness]:
    async with signed_in(tmp_path, bridge=None) as harness:
        yield harness


def run_phase(phase: str):
    def check(frame: dict) -> bool:
        st = frame["params"] if frame["method"] == "clauz3/state" else None
        return bool(st) and any(r.get("phase") == phase for r in st["runs"])
    return check


async def start_email_run(svc: Harness) -> tuple[object, str, dict]:
    ws = await svc.ws()
    restore = await recv(ws)
    cid = restore["params"]["state"]["conversation_id"]
    await recv_until(ws, state_is(agent_status="ready"))
    await ws.send(json.dumps({"method": "session/prompt", "params": {"conversation_id": cid, "prompt": STARTER}}))
    card, _ = await recv_until(ws, lambda f: f["method"] == "clauz3/approval", timeout=60)
    return ws, cid, card["params"]["record"]


async def test_card_names_mock_library_and_approve_completes(svc: Harness) -> None:
    ws, cid, record = await start_email_run(svc)
    assert record["state"] == "pending" and record["conversation_id"] == cid
    contracts = record["presentation"]["contracts"]
    assert [c["library"]["title"] for c in contracts] == ["Mock email"] * len(contracts)
    assert {c["library"]["mock"] for c in contracts} == {"mock"}
    assert any(c["call"].startswith("email.only(addresses=") and "bob@example.com" in c["call"] for c in contracts)
    assert "receipt" not in record
    await recv_until(ws, run_phase("awaiting_approval"))
    async with svc.client(cookies=svc.cookies()) as c:
        response = await c.post(f"/api/requests/{record['request_id']}/decision", json={"decision": "approved_once"},
                                headers={"Origin": svc.origin})
    assert response.status_code == 200, response.text
    decided, _ = await recv_until(ws, lambda f: f["method"] == "clauz3/approval")
    assert decided["params"]["record"]["state"] == "approved"
    final, seen = await recv_until(ws, run_phase("completed"), timeout=30)
    run = next(r for r in final["params"]["runs"] if r["request_id"] == record["request_id"])
    assert run["turn"] == 1 and run["undo"] == {"available": False, "undone": False}
    if not any(f["method"] == "clauz3/turn_end" for f in seen):
        await recv_until(ws, lambda f: f["method"] == "clauz3/turn_end", timeout=30)
    # Nothing secret reached the store.
    stored = json.dumps(svc.host.store.history(cid)) + json.dumps(svc.host.store.get(cid).state)
    for secret in svc.host.secret_values():
        assert secret not in stored
    await ws.close()


async def test_stop_cancels_the_pending_approval(svc: Harness) -> None:
    ws, _cid, record = await start_email_run(svc)
    await recv_until(ws, run_phase("awaiting_approval"))
    await ws.send(json.dumps({"method": "session/cancel", "params": {}}))
    cancelled, _ = await recv_until(ws, lambda f: f["method"] == "clauz3/approval")
    assert cancelled["params"]["record"]["state"] == "cancelled"
    assert cancelled["params"]["record"]["cancel_reason"] == "stopped"
    async with svc.client(cookies=svc.cookies()) as c:
        response = await c.post(f"/api/requests/{record['request_id']}/decision", json={"decision": "approved_once"},
                                headers={"Origin": svc.origin})
    assert response.status_code == 409 and response.json()["error"]["code"] == "not_pending"
    end, _ = await recv_until(ws, lambda f: f["method"] == "clauz3/turn_end", timeout=30)
    assert end["params"]["stop_reason"] in ("cancelled", "end_turn")
    runs = svc.host.conversation.runs
    for _ in range(1800):  # the bridge pushes the final record once its worker is gone
        if runs[record["request_id"]].phase == "cancelled":
            break
        await asyncio.sleep(0.05)
    assert runs[record["request_id"]].phase == "cancelled", runs  # the bridge got the host's cancel_run
    await ws.close()


async def test_reload_restores_pending_card(svc: Harness) -> None:
    ws, _cid, record = await start_email_run(svc)
    await ws.close()
    ws2 = await svc.ws()
    restore = await recv(ws2)
    assert [a["request_id"] for a in restore["params"]["approvals"]] == [record["request_id"]]
    await ws2.close()
