"""The host's JSON-RPC edge (sessions/agent/jsonrpc.py) against a real agent process: a Python child on
real pipes, speaking newline-delimited JSON through the host's own PipeTransport."""

from __future__ import annotations

import asyncio
import sys
import textwrap
from typing import Any

import pytest

from clauz3.sessions.agent.acp_transport import PipeTransport
from clauz3.sessions.agent.jsonrpc import RpcConnection, RpcError

# A tiny peer: answers "echo", errors on "fail", asks us "ask/me" and "ask/boom" and reports our answers,
# sends a notification, and exits on "bye" (its stdout closes with a request still pending).
PEER = textwrap.dedent('''
    import json, sys
    def send(m): sys.stdout.write(json.dumps(m) + "\\n"); sys.stdout.flush()
    for line in sys.stdin:
        m = json.loads(line)
        if m.get("method") == "echo":
            send({"jsonrpc": "2.0", "method": "note", "params": {"before": m["id"]}})
            send({"jsonrpc": "2.0", "id": m["id"], "result": m["params"]})
        elif m.get("method") == "fail":
            send({"jsonrpc": "2.0", "id": m["id"], "error": {"code": -32002, "message": "Unknown session id"}})
        elif m.get("method") == "ask":
            send({"jsonrpc": "2.0", "id": "a1", "method": "ask/me", "params": {"x": 1}})
            send({"jsonrpc": "2.0", "id": "a2", "method": "ask/boom", "params": None})
            answers = {}
            while len(answers) < 2:
                r = json.loads(sys.stdin.readline())
                answers[r["id"]] = r.get("result", r.get("error"))
            send({"jsonrpc": "2.0", "id": m["id"], "result": answers})
        elif m.get("method") == "bye":
            sys.exit(0)
''')


async def _connect() -> tuple[RpcConnection, list[dict[str, Any]], asyncio.subprocess.Process]:
    proc = await asyncio.create_subprocess_exec(sys.executable, "-c", PEER, stdin=asyncio.subprocess.PIPE,
                                                stdout=asyncio.subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None
    seen: list[dict[str, Any]] = []

    async def on_request(method: str, params: Any) -> Any:
        if method == "ask/boom":
            raise ValueError("boom")
        return {"method": method, "params": params}

    conn = RpcConnection(PipeTransport(proc.stdout, proc.stdin), on_request=on_request, on_incoming=seen.append)
    return conn, seen, proc


def test_requests_errors_the_agents_requests_and_the_end_of_the_stream() -> None:
    async def scenario() -> None:
        conn, seen, proc = await _connect()
        assert await conn.send_request("echo", {"a": [1, "é"]}) == {"a": [1, "é"]}
        assert [f.get("method") for f in seen] == ["note", None]  # every frame, in wire order, before its effect
        with pytest.raises(RpcError) as failed:
            await conn.send_request("fail", {})
        assert (failed.value.code, str(failed.value)) == (-32002, "Unknown session id")
        answers = await conn.send_request("ask", {})
        assert answers["a1"] == {"method": "ask/me", "params": {"x": 1}}
        assert answers["a2"]["code"] == -32603 and answers["a2"]["data"] == {"details": "boom"}
        with pytest.raises(ConnectionError):
            await conn.send_request("bye", {})  # the peer exits without answering
        with pytest.raises(ConnectionError):
            await conn.send_notification("after", {})
        await conn.close()
        await proc.wait()

    asyncio.run(scenario())
