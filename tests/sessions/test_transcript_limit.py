"""QB-18 / 02 STORE-9 through the host: the limit is hit mid-run; the run completes, later frames are
delivered ``unsaved``, prompts get ``storage_full``, Stop still works, and the flag survives a restart."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sessions_harness import recv, recv_until, running_service, signed_in, state_is
from test_approval_flow import run_phase, start_email_run

from clauz3.sessions.store.store import LIMIT_BYTES


async def test_limit_mid_run(tmp_path: Path) -> None:
    async with signed_in(tmp_path, bridge=None) as svc:
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
        assert any(r.phase == "completed" for r in svc.host.conversation.runs.values())
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

    async with running_service(tmp_path, project=project, bridge=None) as svc:
        await svc.login()
        ws = await svc.ws()
        restore = await recv(ws)
        assert restore["params"]["state"]["conversation_id"] == cid
        assert restore["params"]["state"]["history_limited"] is True
        await ws.close()


@pytest.mark.soak
async def test_limit_at_its_real_size(tmp_path: Path) -> None:
    """QB-18 at the real 8,000,000 bytes (no lowered limit): the real demo agent counts to 10,000 turn after
    turn until the store stops keeping frames; then one notice, prompts refused, Stop still works, and the
    stored transcript stays within the limit."""
    async with signed_in(tmp_path) as svc:
        store = svc.host.store
        assert store.limit_bytes == LIMIT_BYTES == 8_000_000  # the product's limit, untouched
        ws = await svc.ws()
        restore = await recv(ws)
        cid = restore["params"]["state"]["conversation_id"]
        await recv_until(ws, state_is(agent_status="ready"), timeout=60)
        notices: list[str] = []
        sizes: list[int] = []
        for _turn in range(1, 401):  # bounded so the test ends by itself
            await ws.send(json.dumps({"method": "session/prompt",
                                      "params": {"conversation_id": cid, "prompt": "count to 10000"}}))
            final, seen = await recv_until(ws, lambda f: f["method"] == "clauz3/turn_end"
                                           or (f["method"] == "clauz3/notice"
                                               and f["params"].get("code") == "storage_full"), timeout=120)
            notices += [f["params"].get("code") for f in seen if f["method"] == "clauz3/notice"]
            if final["method"] == "clauz3/notice":
                break
            saved = store.get(cid)
            assert saved is not None
            sizes.append(saved.bytes)
        else:
            raise AssertionError(f"400 turns never filled the transcript: {sizes[-3:]}")
        assert notices.count("storage_limit_reached") == 1 and notices[-1] == "storage_full", notices
        per_turn = sizes[1] - sizes[0]
        assert per_turn > 10_000 and sizes[-1] >= LIMIT_BYTES - 2 * per_turn, (per_turn, sizes[-3:])
        saved = store.get(cid)
        assert saved is not None and saved.history_limited and saved.bytes <= LIMIT_BYTES
        await ws.send(json.dumps({"method": "session/cancel", "params": {}}))  # Stop stays available
        await ws.send(json.dumps({"method": "session/prompt", "params": {"conversation_id": cid, "prompt": "x"}}))
        again, _ = await recv_until(ws, lambda f: f["method"] == "clauz3/notice")
        assert again["params"]["code"] == "storage_full"
        await ws.close()
    print(f"turns {len(sizes) + 1}, bytes per turn {per_turn}, stored {sizes[-1]}")
