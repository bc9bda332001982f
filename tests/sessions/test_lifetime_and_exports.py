"""Lifetime tickets (03 CRED-4), run-record seam (DEC-5), exports, handoff and attachments."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sessions_harness import Harness, recv, recv_until, signed_in, state_is

from clauz3.runs.records import Phase, RunRecord
from clauz3.sessions.conversation.lifetime import LifetimeServer
from clauz3.sessions.web.state_frame import activity


@pytest.fixture
async def svc(tmp_path: Path) -> AsyncIterator[Harness]:
    async with signed_in(tmp_path) as harness:
        yield harness


async def hello(path: str, ticket: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter, bytes]:
    reader, writer = await asyncio.open_unix_connection(path)
    writer.write((json.dumps({"hello": 1, "ticket": ticket}) + "\n").encode())
    await writer.drain()
    return reader, writer, await asyncio.wait_for(reader.readline(), 5)


async def test_tickets_are_single_start_and_limited(tmp_path: Path) -> None:
    server = LifetimeServer(tmp_path)
    records: list[tuple[str, str, RunRecord]] = []
    server.on_record = lambda cid, gen, rec: records.append((cid, gen, rec))
    path = await server.endpoint("c1")
    ticket = server.mint_ticket("c1", lambda: {"workspace_generation": "g1", "submission_token": "t"})
    assert (await hello(path, "wrong"))[2] == b""
    writers = []
    for _ in range(1):  # issue 11 §5: one handshake per ticket (03 CRED-4 allowed four)
        reader, writer, line = await hello(path, ticket)
        assert json.loads(line)["workspace_generation"] == "g1"
        writers.append((reader, writer))
    assert (await hello(path, ticket))[2] == b""  # a second handshake gets no reply
    reader, writer = writers[0]
    # The edge parses records: one without a request id or with a phase this version lacks is dropped.
    writer.write(b'{"op": "run", "record": {"phase": "proving"}}\n')
    writer.write(b'{"op": "run", "record": {"request_id": "r0", "phase": "launching"}}\n')
    writer.write(b'{"op": "run", "record": {"request_id": "r1", "phase": "proving"}}\n')
    await writer.drain()
    for _ in range(50):
        if records:
            break
        await asyncio.sleep(0.02)
    assert [(cid, gen, rec.request_id, rec.phase) for cid, gen, rec in records] == [
        ("c1", "g1", "r1", Phase.PROVING)]
    assert server.cancel_run("c1", "r1") == 1
    assert json.loads(await reader.readline()) == {"op": "cancel_run", "request_id": "r1"}
    server.end_ticket(ticket)
    assert await asyncio.wait_for(reader.read(), 5) == b""  # the bridge sees EOF and exits
    assert (await hello(path, ticket))[2] == b""
    await server.close()


async def test_run_records_from_an_old_generation_are_ignored(svc: Harness) -> None:
    conv = svc.host.conversation
    svc.host.on_run_record(conv.id, "stale-generation", RunRecord("r-old", phase=Phase.PROVING))
    svc.host.on_run_record(conv.id, svc.host.authority.generation, RunRecord("r-new", phase=Phase.PROVING))
    assert list(conv.runs) == ["r-new"]
    assert activity(conv) == {"kind": "run", "phase": "proving", "request_id": "r-new"}


async def hello_turn(svc: Harness) -> str:
    ws = await svc.ws()
    cid = (await recv(ws))["params"]["state"]["conversation_id"]
    await recv_until(ws, state_is(agent_status="ready"))
    await ws.send(json.dumps({"method": "session/prompt", "params": {"conversation_id": cid, "prompt": "hello"}}))
    await recv_until(ws, lambda f: f["method"] == "clauz3/turn_end")
    await ws.close()
    return cid


async def test_exports_and_handoff_hold_no_secrets(svc: Harness) -> None:
    cid = await hello_turn(svc)
    secrets_now = svc.host.secret_values()
    async with svc.client(cookies=svc.cookies()) as c:
        as_json = await c.get(f"/api/chat/transcript?id={cid}")
        as_md = await c.get("/api/chat/transcript?format=markdown")
        bad = await c.get("/api/chat/transcript?format=pdf")
        unknown = await c.get("/api/chat/transcript?id=00000000-0000-4000-8000-000000000000")
        first = await c.post("/api/chat/handoff", json={"conversation_id": cid}, headers={"Origin": svc.origin})
        second = await c.post("/api/chat/handoff", json={"conversation_id": cid}, headers={"Origin": svc.origin})
        foreign = await c.post("/api/chat/handoff", json={"conversation_id": "00000000-0000-4000-8000-000000000000"},
                               headers={"Origin": svc.origin})
    assert as_json.status_code == 200 and as_json.json()["conversation_id"] == cid
    assert 'filename="clauz3-hello-' in as_json.headers["content-disposition"]
    assert as_md.text.startswith("# hello\n") and "## You" in as_md.text
    assert bad.status_code == 400 and unknown.status_code == 404 and foreign.status_code == 404
    paths = [Path(first.json()["path"]), Path(second.json()["path"])]
    assert paths[0] != paths[1]
    lines = first.json()["text"].splitlines()
    assert lines[0] == f"Clauz3 conversation: {cid}" and len(lines) == 6
    for path in paths:
        assert path.stat().st_mode & 0o777 == 0o600
        text = path.read_text()
        for secret in secrets_now:
            assert secret not in text
    for response in (as_json, as_md):
        for secret in secrets_now:
            assert secret not in response.text
        assert "clauz3.bridge" not in response.text and "CLAUZ3_BRIDGE_TICKET" not in response.text


async def test_delete_current_idle_conversation_opens_another(svc: Harness) -> None:
    cid = await hello_turn(svc)
    async with svc.client(cookies=svc.cookies()) as c:
        response = await c.delete(f"/api/chat/conversations/{cid}", headers={"Origin": svc.origin})
        again = await c.delete(f"/api/chat/conversations/{cid}", headers={"Origin": svc.origin})
    assert response.status_code == 200
    assert response.json()["deleted"] == cid and response.json()["current"] != cid
    assert again.status_code == 404


async def test_attachments_are_sniffed_and_private(svc: Harness) -> None:
    cid = svc.host.conversation.id
    png = b"\x89PNG\r\n\x1a\n" + b"\x00" * 32
    headers = {"Origin": svc.origin, "X-Clauz3-Filename": "..%2F..%2Fetc%2Fpasswd"}
    async with svc.client(cookies=svc.cookies()) as c:
        ok = await c.post(f"/api/chat/attachments?conversation_id={cid}", content=png, headers=headers)
        elf = await c.post(f"/api/chat/attachments?conversation_id={cid}", content=b"\x7fELF\x00\x01",
                           headers={**headers, "X-Clauz3-Filename": "x.png"})
        stale = await c.post("/api/chat/attachments?conversation_id=00000000-0000-4000-8000-000000000000",
                             content=png, headers=headers)
        fetched = await c.get(f"/api/chat/attachments/{ok.json()['id']}")
    assert ok.status_code == 201, ok.text
    body = ok.json()
    assert body["name"] == "passwd" and body["kind"] == "image" and body["mime_type"] == "image/png"
    stored = svc.host.data_dir / "attachments" / cid / body["id"]
    assert stored.read_bytes() == png and stored.stat().st_mode & 0o777 == 0o600
    assert elf.status_code == 415 and stale.status_code == 409
    assert fetched.content == png and fetched.headers["content-security-policy"] == "default-src 'none'"
