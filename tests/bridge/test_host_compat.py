"""The bridge against the host's real lifetime server (sessions/conversation/lifetime.py): same protocol both ends."""

from __future__ import annotations

import sys
from pathlib import Path

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from clauz3.approvals.mock import MockApprovalService
from clauz3.runs.records import RunRecord
from clauz3.sessions.conversation import lifetime

from .conftest import EMAIL_PROGRAM, bridge_args, credentials, text_of


async def test_run_records_reach_the_real_host_server(project: Path, svc: MockApprovalService,
                                                      tmp_path: Path) -> None:
    import os

    server = lifetime.LifetimeServer(tmp_path)
    path = await server.endpoint("conv-real")
    assert svc.authority is not None
    generation = svc.authority.generation
    creds = credentials(svc, tmp_path, conversation_id="conv-real", workspace_generation=generation)
    ticket = server.mint_ticket("conv-real", lambda: creds)
    seen: list[tuple[str, str, RunRecord]] = []
    server.on_record = lambda cid, generation, record: seen.append((cid, generation, record))
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAUZ3_") or k == "CLAUZ3_HOME"}
    env.update(CLAUZ3_SESSION_LIFETIME_SOCKET=path, CLAUZ3_BRIDGE_TICKET=ticket)
    params = StdioServerParameters(command=sys.executable, args=bridge_args(project), env=env, cwd=str(project))
    try:
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            result = await session.call_tool("run", {"source": EMAIL_PROGRAM, "request_id": "req_realhost_01"})
            assert result.structured_content["phase"] == "completed", text_of(result)
    finally:
        await server.close()
    assert seen and all(cid == "conv-real" and gen == generation for cid, gen, _ in seen)
    assert seen[-1][2].phase == "completed" and seen[-1][2].request_id == "req_realhost_01"
