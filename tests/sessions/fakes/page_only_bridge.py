"""PageOnlyBridge: a stand-in for the clauz3 bridge + worker, ONLY for page and host mechanics that never
depend on a proof or a run (sessions_harness.PageOnlyBridge). It proves nothing, executes nothing and ends
every approved run "completed"; no assertion may check text only it produces ("Sandbox: unavailable",
"Completed"). Flows a person sees run on the real path (tests/browser/test_real_path_flows.py).

It speaks the host's real lifetime protocol.

It does the CRED-4 handshake on $CLAUZ3_SESSION_LIFETIME_SOCKET with $CLAUZ3_BRIDGE_TICKET,
serves the six MCP tools over stdio, and on `run` submits a real approval request (marked
proved; this fake does not prove anything) to the host's authority with the submission token,
pushes `{"op":"run","record":…}` lines as the phase changes, long-polls the decision and
finishes `completed` or `refused`. Host `cancel_run` lines cancel the run. EOF on the socket
exits 143. It logs handshake keys (never values) and calls to $FAKE_BRIDGE_LOG.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import socket
import sys
import threading
import time
import urllib.request
from typing import Any

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

SIX = ["run", "status", "tools", "libraries", "list_skills", "read_skill"]
STATE: dict[str, Any] = {"creds": None, "sock": None, "cancelled": set(), "trusted": [], "imports": []}
LOCK = threading.Lock()


def log(kind: str, data: dict[str, Any]) -> None:
    with open(os.environ["FAKE_BRIDGE_LOG"], "a", encoding="utf-8") as fh:
        fh.write(json.dumps({"kind": kind, **data}) + "\n")


def handshake() -> None:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.connect(os.environ["CLAUZ3_SESSION_LIFETIME_SOCKET"])
    from clauz3.bridge.lifetime import read_ticket_file  # the host hands the ticket over in a file

    ticket = read_ticket_file(os.environ["CLAUZ3_BRIDGE_TICKET_FILE"])
    sock.sendall((json.dumps({"hello": 1, "ticket": ticket}) + "\n").encode())
    reader = sock.makefile("rb")
    line = reader.readline()
    if not line:
        log("handshake_refused", {})
        os._exit(3)
    creds = json.loads(line)
    log("handshake", {"keys": sorted(creds)})
    STATE["creds"], STATE["sock"] = creds, sock

    def watch() -> None:
        for raw in reader:
            try:
                message = json.loads(raw)
            except ValueError:
                continue
            log("host_line", {"op": message.get("op"), "request_id": message.get("request_id")})
            if message.get("op") == "cancel_run":
                STATE["cancelled"].add(message.get("request_id"))
        os._exit(143)  # LIFE-1: the host closed our lifetime socket

    threading.Thread(target=watch, daemon=True).start()


def push(record: dict[str, Any]) -> None:
    with LOCK:
        STATE["sock"].sendall((json.dumps({"op": "run", "record": record}) + "\n").encode())


def http(method: str, path: str, body: dict[str, Any] | None = None) -> tuple[int, dict[str, Any]]:
    creds = STATE["creds"]
    request = urllib.request.Request(creds["service_url"] + path, method=method,
                                     data=json.dumps(body).encode() if body is not None else None,
                                     headers={"Authorization": f"Bearer {creds['submission_token']}",
                                              "Content-Type": "application/json"})
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(request, timeout=40) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"{}")


def guarantees(source: str) -> list[str]:
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef) and node.name == "main":
            for deco in node.decorator_list:
                if isinstance(deco, ast.Call) and ast.unparse(deco.func).endswith("guarantee") and deco.args:
                    out.append(ast.get_source_segment(source, deco.args[0]) or ast.unparse(deco.args[0]))
    return list(reversed(out))


def run_program(source: str) -> dict[str, Any]:
    request_id = "clr_" + hashlib.sha256(f"{source}{time.time()}".encode()).hexdigest()[:32]
    creds = STATE["creds"]
    record: dict[str, Any] = {"request_id": request_id, "run_id": "run-" + request_id[4:12],
                              "conversation_id": creds["conversation_id"], "attempt": 1, "phase": "checking",
                              "reason": None, "message": None, "exit_code": None, "approval": None}
    push(record)
    record["phase"] = "proving"
    push(dict(record))
    found = guarantees(source)
    body = {
        "schema_version": 1, "kind": "clauz3.run", "request_id": request_id, "program": source,
        "program_sha256": hashlib.sha256(source.encode()).hexdigest(), "source_name": "<mcp>", "target": "main",
        "trusted_roots": STATE["trusted"], "import_roots": STATE["imports"], "guarantees": found,
        "coverage": [], "proofs": [{"name": g, "conclusion": "proved", "description": g} for g in found],
        "execution_timeout_seconds": 60, "workspace_generation": creds["workspace_generation"],
        "sandbox": {"mode": "unavailable", "detail": "fake bridge", "extra_read": [], "extra_write": []},
    }
    record["phase"] = "submitting_approval"
    push(dict(record))
    status, view = http("POST", "/api/requests", body)
    log("submitted", {"status": status, "code": view.get("error", {}).get("code")})
    if status not in (200, 201):
        record.update(phase="refused", reason="service_error", exit_code=2, message=str(view.get("error")))
        push(dict(record))
        return record
    record["phase"] = "awaiting_approval"
    push(dict(record))
    while view.get("state") == "pending" and request_id not in STATE["cancelled"]:
        status, view = http("GET", f"/api/requests/{request_id}?wait=1")
        log("polled", {"status": status, "state": view.get("state")})
    approval = {"state": view.get("state"), "decision": view.get("decision"), "decided_by": view.get("decided_by"),
                "rule": None, "feedback": view.get("feedback")}
    if request_id in STATE["cancelled"]:
        record.update(phase="cancelled", reason="stopped", exit_code=None, approval=approval)
    elif view.get("state") == "approved":
        record.update(phase="executing", approval=approval)
        push(dict(record))
        record.update(phase="completed", exit_code=0)
    else:
        record.update(phase="refused", reason="denied", exit_code=3, approval=approval)
    push(dict(record))
    log("finished", {"phase": record["phase"]})
    return record


def _result(text: str, structured: dict[str, Any], is_error: bool = False) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], structured_content=structured,
                                is_error=is_error)


async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
    return types.ListToolsResult(tools=[types.Tool(name=n, description=f"fake {n}", input_schema={
        "type": "object", "properties": {"source": {"type": "string"}} if n == "run" else {}},
        output_schema={"type": "object"}) for n in SIX])


async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
    arguments = dict(params.arguments or {})
    log("call", {"tool": params.name})
    if params.name == "run":
        record = await anyio.to_thread.run_sync(run_program, str(arguments.get("source", "")))
        text = f"request id: {record['request_id']}\nphase: {record['phase']}"
        return _result(text, {**record, "stdout": "", "stderr": ""}, is_error=record["phase"] != "completed")
    if params.name == "tools":
        entries = [{"domain": "email", "module": "tools.email.trusted.effects", "kind": "effect",
                    "name": "send_email", "signature": "(addr: str, msg: str)", "summary": "", "import": ""}]
        for name in ("only", "at_most", "unique_recipients"):
            entries.append({"domain": "email", "module": "tools.email.trusted.contracts", "kind": "contract",
                            "name": name, "signature": "(...)", "summary": "", "import": ""})
        return _result("Installed tools:\nsend_email", {"view": "api", "entries": entries})
    if params.name == "status":
        return _result("No runs yet.", {"runs": []})
    if params.name == "list_skills":
        return _result("builtin:clauz3-authoring — Authoring", {"skills": []})
    if params.name == "read_skill":
        return _result("Unknown skill ID; call list_skills to see the available IDs.", {}, is_error=True)
    return _result("Nothing matches.", {"libraries": []})


async def main() -> None:
    args = sys.argv[1:]
    for flag, key in (("--trusted-root", "trusted"), ("--import-root", "imports")):
        STATE[key] = [args[i + 1] for i, a in enumerate(args) if a == flag]
    handshake()
    server = Server("clauz3", on_list_tools=list_tools, on_call_tool=call_tool)
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


if __name__ == "__main__":
    anyio.run(main)
