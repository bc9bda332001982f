"""05 §14 "Mocks and selection" acceptance lines through the real host (SEL-10..SEL-16): later
removals apply without a pause, a confirmed widening keeps the agent session, pauses for the rest
of that conversation only (also after reopening), the agent gets one `[clauz3]` note that is not
stored as user text, a paused chat still auto-rejects a remembered denial, a drifted conversation
reopens read-only, and the agent's tools cannot change the selection."""

from __future__ import annotations

import glob
import json
from pathlib import Path
from typing import Any

from sessions_harness import recv, recv_until, signed_in, state_is
from test_approval_flow import STARTER, run_phase, start_email_run
from workspace_helpers import install

NOTE_START = "[clauz3] Library change since your last message — "
READ_ONLY = ("Libraries used here were changed or removed since the last run. The history stays readable; to go on, "
             "continue with the installed libraries or open a new conversation.")


def method(name: str) -> Any:
    return lambda f: f["method"] == name


async def send(ws: Any, name: str, **params: Any) -> None:
    await ws.send(json.dumps({"method": name, "params": params}))


async def turn(ws: Any, cid: str, text: str) -> None:
    await send(ws, "session/prompt", conversation_id=cid, prompt=text)
    await recv_until(ws, method("clauz3/turn_end"), timeout=30)
    await recv_until(ws, state_is(agent_status="ready"), timeout=20)


def demo_user_texts(data: Path, session_id: str) -> list[str]:
    [path] = glob.glob(str(data / "agents" / "demo" / "sessions" / f"{session_id}.json"))
    history = json.loads(Path(path).read_text())["history"]
    return [h["text"] for h in history if h["role"] == "user"]


async def test_removal_widening_note_reopen_and_new_chat(tmp_path: Path) -> None:
    async with signed_in(tmp_path) as svc:
        data = Path(svc.host.data_dir)
        project = Path(svc.host.project)
        install(project, data, "stdlib:env")
        install(project, data, "stdlib:web_search")
        ws = await svc.ws()
        cid = (await recv(ws))["params"]["state"]["conversation_id"]
        await recv_until(ws, state_is(agent_status="ready"))
        # Before the first message: applied without confirmation, pause or marker.
        await send(ws, "clauz3/libraries", conversation_id=cid, domains=["email", "env"])
        _, seen = await recv_until(ws, state_is(libraries=["email", "env"], approvals_paused=False,
                                                agent_status="ready"), timeout=20)
        assert not any(f["method"] in ("clauz3/confirm_libraries", "clauz3/libraries_changed") for f in seen)
        await turn(ws, cid, "hello")
        session_id = svc.host.conversation.saved.session_id
        assert session_id

        # A later removal: applied at once, no confirmation, no pause.
        await send(ws, "clauz3/libraries", conversation_id=cid, domains=["email"])
        removed, seen = await recv_until(ws, method("clauz3/libraries_changed"), timeout=20)
        assert not any(f["method"] == "clauz3/confirm_libraries" for f in seen)
        assert removed["params"]["removed"] == ["env"] and removed["params"]["paused"] is False
        await recv_until(ws, state_is(libraries=["email"], approvals_paused=False, agent_status="ready"), timeout=20)
        assert svc.host.authority._conversations[cid].paused is False

        # A later addition: confirm first, then the same agent session, paused, with the marker.
        await send(ws, "clauz3/libraries", conversation_id=cid, domains=["email", "web_search"])
        ask, _ = await recv_until(ws, method("clauz3/confirm_libraries"))
        assert ask["params"]["added"] == ["web_search"]
        assert svc.host.conversation.saved.libraries == ["email"]
        await send(ws, "clauz3/libraries", conversation_id=cid, domains=["email", "web_search"], confirm=True)
        marker, _ = await recv_until(ws, method("clauz3/libraries_changed"), timeout=20)
        assert marker["params"] == {"added": ["web_search"], "removed": [], "updated": False, "paused": True,
                                    "turn": 1}
        await recv_until(ws, state_is(libraries=["email", "web_search"], approvals_paused=True,
                                      agent_status="ready"), timeout=20)
        assert svc.host.conversation.saved.session_id == session_id

        # The next prompt carries one note with both pending changes; the stored user text is unchanged.
        await turn(ws, cid, "again")
        prompts = demo_user_texts(data, session_id)
        assert prompts[0] == "hello"
        assert prompts[-1].startswith(NOTE_START) and prompts[-1].endswith("\n\nagain")
        note = prompts[-1].split("\n\n")[0]
        assert "added web_search" in note and "removed env" in note
        assert sum(p.count("[clauz3]") for p in prompts) == 1
        history = json.dumps(svc.host.store.history(cid))
        assert "[clauz3] Library change" not in history
        assert svc.host.conversation.saved.library_changes == []
        await turn(ws, cid, "third")
        assert not demo_user_texts(data, session_id)[-1].startswith("[clauz3]")

        # A new conversation starts unpaused; reopening the first one is still paused.
        await send(ws, "clauz3/new")
        fresh, _ = await recv_until(ws, lambda f: f["method"] == "clauz3/restore"
                                    and f["params"]["state"]["conversation_id"] != cid, timeout=20)
        assert fresh["params"]["state"]["approvals_paused"] is False
        await recv_until(ws, state_is(agent_status="ready"), timeout=20)
        await send(ws, "clauz3/select", id=cid)
        back, _ = await recv_until(ws, lambda f: f["method"] == "clauz3/restore"
                                   and f["params"]["state"]["conversation_id"] == cid, timeout=20)
        assert back["params"]["state"]["approvals_paused"] is True
        assert back["params"]["state"]["libraries"] == ["email", "web_search"]
        await recv_until(ws, state_is(agent_status="ready"), timeout=20)
        assert svc.host.authority._conversations[cid].paused is True
        await ws.close()


async def test_paused_chat_still_auto_rejects_a_remembered_denial(tmp_path: Path) -> None:
    async with signed_in(tmp_path, bridge=None) as svc:
        ws, cid, record = await start_email_run(svc)
        await recv_until(ws, run_phase("awaiting_approval"))
        async with svc.client(cookies=svc.cookies()) as c:
            denied = await c.post(f"/api/requests/{record['request_id']}/decision",
                                  json={"decision": "rejected", "remember": True}, headers={"Origin": svc.origin})
            assert denied.status_code == 200, denied.text
        await recv_until(ws, method("clauz3/turn_end"), timeout=30)
        await recv_until(ws, state_is(agent_status="ready"), timeout=20)
        svc.host.authority.set_paused(cid, True)
        await send(ws, "session/prompt", conversation_id=cid, prompt=STARTER)
        _, seen = await recv_until(ws, method("clauz3/turn_end"), timeout=30)
        runs = svc.host.conversation.saved.runs
        assert len(runs) == 2 and runs[1].request_id != record["request_id"]
        assert (runs[1].phase, runs[1].record.reason) == ("refused", "denied")
        approval = runs[1].to_json()["approval"]
        assert approval["decision"] == "auto_rejected" and approval["decided_by"] == "profile"
        cards = [f["params"]["record"] for f in seen if f["method"] == "clauz3/approval"
                 and f["params"]["record"]["request_id"] == runs[1].request_id]
        assert cards and all(c.get("approvals_paused") is True for c in cards)
        await ws.close()


async def test_drifted_conversation_refuses_the_run_and_reopens_read_only(tmp_path: Path) -> None:
    async with signed_in(tmp_path) as svc:
        ws = await svc.ws()
        cid = (await recv(ws))["params"]["state"]["conversation_id"]
        await recv_until(ws, state_is(agent_status="ready"))
        await turn(ws, cid, "hello")
        effects = Path(svc.host.project) / "tools" / "email" / "trusted" / "effects.py"
        effects.write_text(effects.read_text() + "\n# edited mid-conversation\n")
        await send(ws, "session/prompt", conversation_id=cid, prompt="again")
        refused, _ = await recv_until(ws, lambda f: f["method"] == "clauz3/notice"
                                      and f["params"]["code"] == "libraries_changed")
        assert refused["params"]["level"] == "error"
        assert svc.host.conversation.saved.runs == []  # refused before any run or proof
        assert svc.host.conversation.turn == 1

        # Open another conversation, then reopen the drifted one: read-only with the SEL-15 text.
        await send(ws, "clauz3/new")
        await recv_until(ws, lambda f: f["method"] == "clauz3/restore"
                         and f["params"]["state"]["conversation_id"] != cid, timeout=20)
        await recv_until(ws, state_is(agent_status="ready"), timeout=20)
        await send(ws, "clauz3/select", id=cid)
        back, seen = await recv_until(ws, lambda f: f["method"] == "clauz3/restore"
                                      and f["params"]["state"]["conversation_id"] == cid, timeout=20)
        assert back["params"]["state"]["libraries_changed"] is True
        if not any(f["method"] == "clauz3/notice" and f["params"]["text"] == READ_ONLY for f in seen):
            await recv_until(ws, lambda f: f["method"] == "clauz3/notice" and f["params"]["text"] == READ_ONLY,
                             timeout=10)
        await send(ws, "session/prompt", conversation_id=cid, prompt="go on")
        again, _ = await recv_until(ws, lambda f: f["method"] == "clauz3/notice"
                                    and f["params"]["code"] == "libraries_changed")
        assert again["params"]["level"] == "error"
        await ws.close()


def test_agent_tools_are_read_only_for_libraries() -> None:
    from clauz3.bridge.schemas import TOOLS

    names = sorted(t.name for t in TOOLS)
    assert names == ["libraries", "list_skills", "read_skill", "run", "status", "tools"]
    libraries = next(t for t in TOOLS if t.name == "libraries")
    assert set(libraries.input_schema["properties"]) <= {"query"}
    assert libraries.input_schema["additionalProperties"] is False
    for tool in TOOLS:  # no tool takes a domain list, a library source, roots or an install action
        props = set(tool.input_schema.get("properties", {}))
        assert not props & {"domains", "library", "action", "install", "select", "trusted_roots", "import_roots"}
    run = next(t for t in TOOLS if t.name == "run")
    assert set(run.input_schema["properties"]) == {"source", "request_id", "timeout_seconds"}  # source = program
