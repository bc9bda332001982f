"""Approvals profile routes through the host (03 §9.5–9.6), and conversation library selection
(05 SEL-4, SEL-10..SEL-15): confirm on widening, pause, marker, host note, drift refusal."""

from __future__ import annotations

import json
from pathlib import Path

from sessions_harness import recv, recv_until, signed_in, state_is
from test_approval_flow import run_phase, start_email_run
from workspace_helpers import headers, install

from clauz3.layers.selection import save_defaults
from clauz3.sessions.conversation.libraries import pending_notes


async def test_remember_then_disable_a_decision(tmp_path: Path) -> None:
    async with signed_in(tmp_path, bridge=None) as svc:
        ws, _cid, record = await start_email_run(svc)
        await recv_until(ws, run_phase("awaiting_approval"))
        async with svc.client(cookies=svc.cookies()) as c:
            decided = await c.post(f"/api/requests/{record['request_id']}/decision",
                                   json={"decision": "approved_once"}, headers={"Origin": svc.origin})
            assert decided.status_code == 200, decided.text
            await recv_until(ws, run_phase("completed"), timeout=30)
            profile = (await c.get("/api/profile")).json()
            assert profile["project"] == str(svc.host.project) and profile["rules"] == []
            history = profile["history"][0]
            assert history["decision"] == "approved_once" and history["record"]["request_id"] == record["request_id"]

            no_cookie = await svc.client().__aenter__()
            try:
                assert (await no_cookie.get("/api/profile")).status_code == 401
            finally:
                await no_cookie.aclose()
            remembered = await c.post("/api/profile/remember", json={"history_id": history["id"]},
                                      headers=headers(svc))
            assert remembered.status_code == 200, remembered.text
            rule_id = remembered.json()["rule_id"]
            rules = (await c.get("/api/profile")).json()["rules"]
            assert [(r["id"], r["effect"], r["enabled"]) for r in rules] == [(rule_id, "allow", True)]
            unknown = await c.post("/api/profile/remember", json={"history_id": "nope"}, headers=headers(svc))
            assert unknown.status_code == 404
            disabled = await c.post("/api/profile/disable", json={"rule_id": rule_id}, headers=headers(svc))
            assert disabled.json() == {"ok": True}
            assert (await c.get("/api/profile")).json()["rules"][0]["enabled"] is False
        await ws.close()


async def test_widening_needs_confirm_then_pauses_and_notes_the_agent(tmp_path: Path) -> None:
    async with signed_in(tmp_path) as svc:
        data = Path(svc.host.data_dir)
        install(Path(svc.host.project), data, "stdlib:env")
        save_defaults(Path(svc.host.project), ["email"], data)
        ws = await svc.ws()
        restore = await recv(ws)
        state = restore["params"]["state"]
        cid = state["conversation_id"]
        assert state["libraries"] == ["email"] and isinstance(state["library_fingerprint"], str)
        await recv_until(ws, state_is(agent_status="ready"))
        # Before the first message any change applies at once: no confirm, no pause, no marker.
        await ws.send(json.dumps({"method": "clauz3/libraries", "params": {"conversation_id": cid,
                                                                          "domains": ["email", "env"]}}))
        await recv_until(ws, state_is(libraries=["email", "env"], approvals_paused=False, agent_status="ready"),
                         timeout=20)
        await ws.send(json.dumps({"method": "clauz3/libraries", "params": {"conversation_id": cid,
                                                                          "domains": ["email"]}}))
        await recv_until(ws, state_is(libraries=["email"], agent_status="ready"), timeout=20)
        assert svc.host.conversation.saved.library_changes == []
        await ws.send(json.dumps({"method": "session/prompt", "params": {"conversation_id": cid, "prompt": "hello"}}))
        await recv_until(ws, lambda f: f["method"] == "clauz3/turn_end", timeout=20)
        await recv_until(ws, state_is(agent_status="ready"))

        await ws.send(json.dumps({"method": "clauz3/libraries", "params": {"conversation_id": cid,
                                                                          "domains": ["email", "env"]}}))
        confirm, _ = await recv_until(ws, lambda f: f["method"] == "clauz3/confirm_libraries")
        assert confirm["params"]["added"] == ["env"] and confirm["params"]["removed"] == []
        assert confirm["params"]["updated"] is False and confirm["params"]["conversation_id"] == cid
        assert svc.host.conversation.saved.libraries == ["email"]

        await ws.send(json.dumps({"method": "clauz3/libraries", "params": {
            "conversation_id": cid, "domains": ["email", "env"], "confirm": True}}))
        marker, _ = await recv_until(ws, lambda f: f["method"] == "clauz3/libraries_changed")
        assert marker["params"] == {"added": ["env"], "removed": [], "updated": False, "paused": True, "turn": 1}
        await recv_until(ws, state_is(approvals_paused=True, libraries=["email", "env"], agent_status="ready"),
                         timeout=20)
        assert svc.host.authority._conversations[cid].paused is True
        assert [h["method"] for h in svc.host.store.history(cid)].count("clauz3/libraries_changed") == 1

        # Narrowing later: applied, still paused (for the rest of this conversation).
        await ws.send(json.dumps({"method": "clauz3/libraries", "params": {"conversation_id": cid,
                                                                          "domains": ["email"]}}))
        second, _ = await recv_until(ws, lambda f: f["method"] == "clauz3/libraries_changed")
        assert second["params"]["removed"] == ["env"] and second["params"]["paused"] is True
        await recv_until(ws, state_is(libraries=["email"], agent_status="ready"), timeout=20)
        # SEL-14: both changes net out to none, so no note is pending for the agent.
        assert pending_notes(svc.host.conversation.saved) == []
        assert len(svc.host.conversation.saved.library_changes) == 2
        await ws.close()


async def test_edited_library_makes_the_conversation_read_only(tmp_path: Path) -> None:
    async with signed_in(tmp_path) as svc:
        ws = await svc.ws()
        cid = (await recv(ws))["params"]["state"]["conversation_id"]
        await recv_until(ws, state_is(agent_status="ready"))
        await ws.send(json.dumps({"method": "session/prompt", "params": {"conversation_id": cid, "prompt": "hello"}}))
        await recv_until(ws, lambda f: f["method"] == "clauz3/turn_end", timeout=20)
        effects = Path(svc.host.project) / "tools" / "email" / "trusted" / "effects.py"
        effects.write_text(effects.read_text() + "\n# edited\n")
        await ws.send(json.dumps({"method": "session/prompt", "params": {"conversation_id": cid, "prompt": "again"}}))
        refused, _ = await recv_until(ws, lambda f: f["method"] == "clauz3/notice"
                                      and f["params"]["code"] == "libraries_changed")
        assert refused["params"]["level"] == "error"
        await recv_until(ws, state_is(libraries_changed=True))
        assert svc.host.conversation.turn == 1
        # Continue with current libraries: a confirmed widening (files updated) → paused, writable again.
        await ws.send(json.dumps({"method": "clauz3/libraries", "params": {"conversation_id": cid,
                                                                          "domains": ["email"]}}))
        confirm, _ = await recv_until(ws, lambda f: f["method"] == "clauz3/confirm_libraries")
        assert confirm["params"]["updated"] is True
        await ws.send(json.dumps({"method": "clauz3/libraries", "params": {
            "conversation_id": cid, "domains": ["email"], "confirm": True}}))
        await recv_until(ws, state_is(libraries_changed=False, approvals_paused=True, agent_status="ready"),
                         timeout=20)
        await ws.close()
