"""QB-18 / 02 STORE-9 through the host: the limit is hit mid-run; the run completes, later frames are
delivered ``unsaved``, prompts get ``storage_full``, Stop still works, and the flag survives a restart."""

from __future__ import annotations

import json
from pathlib import Path

from sessions_harness import recv, recv_until, running_service, signed_in, state_is
from test_approval_flow import run_phase, start_email_run


async def test_limit_mid_run(tmp_path: Path) -> None:
    async with signed_in(tmp_path) as svc:
        project = Path(svc.host.project)
        ws, cid, record = await start_email_run(svc)
        await recv_until(ws, run_phase("awaiting_approval"))
        store = svc.host.store
        store.limit_bytes = store.get(cid).bytes + 10  # the next retained frame crosses the limit
        async with svc.client(cookies=svc.cookies()) as c:
            decided = await c.post(f"/api/requests/{record['request_id']}/decision",
                                   json={"decision": "approved_once"}, headers={"Origin": svc.origin})
            assert decided.status_code == 200
        final, seen = await recv_until(ws, lambda f: f["method"] == "clauz3/turn_end", timeout=30)
        assert final.get("unsaved") is True
        codes = [f["params"].get("code") for f in seen if f["method"] == "clauz3/notice"]
        assert codes.count("storage_limit_reached") == 1
        await recv_until(ws, state_is(history_limited=True, agent_status="ready"))
        assert any(r["phase"] == "completed" for r in svc.host.conversation.runs.values())
        saved = store.history(cid)
        assert all(f["method"] != "clauz3/turn_end" for f in saved)

        await ws.send(json.dumps({"method": "session/prompt", "params": {"conversation_id": cid, "prompt": "more"}}))
        refused, _ = await recv_until(ws, lambda f: f["method"] == "clauz3/notice")
        assert refused["params"]["code"] == "storage_full"
        await ws.send(json.dumps({"method": "session/cancel", "params": {}}))  # Stop stays available
        await ws.send(json.dumps({"method": "session/prompt", "params": {"conversation_id": cid, "prompt": "x"}}))
        again, _ = await recv_until(ws, lambda f: f["method"] == "clauz3/notice")
        assert again["params"]["code"] == "storage_full"
        await ws.close()

    async with running_service(tmp_path, project=project) as svc:
        await svc.login()
        ws = await svc.ws()
        restore = await recv(ws)
        assert restore["params"]["state"]["conversation_id"] == cid
        assert restore["params"]["state"]["history_limited"] is True
        await ws.close()
