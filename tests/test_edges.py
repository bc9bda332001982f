"""Protocols are parsed once, at their edge (issue 15, acceptance 3).

- ACP: only the ACP client modules (``sessions/agent/acp_*.py``), the provider adapters (they speak ACP)
  and the demo agent (the other side of the wire) name ACP fields; the store, export, terminal and
  page read :mod:`clauz3.sessions.agent.acp_messages`' typed messages or the page's own JSON.
- MCP: in the bridge and the host, only ``bridge/server.py`` touches a ``tools/call`` request's raw ``arguments``, and only
  ``bridge/schemas.py`` validates them into typed values.
- HTTP: a JSON body is read only in route modules, which validate it there.

Each scan is also run on a planted violation and must find what the edge modules hold, so a
green run means it looked at something.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "clauz3"

ACP_FIELDS = frozenset({
    "sessionUpdate", "toolCallId", "rawInput", "rawOutput", "stopReason", "sessionId", "agentCapabilities",
    "promptCapabilities", "protocolVersion", "agent_message_chunk", "tool_call_update", "user_message_chunk",
    "agent_thought_chunk",
})
ACP_EDGE = ("sessions/agent/acp_", "sessions/agent/providers/", "agents/")
MCP_EDGE = {"bridge/server.py"}
HTTP_BODY_READERS = frozenset({"read_json_body", "read_json"})
HTTP_EDGE = {"sessions/web/routes.py", "sessions/web/workspace_routes.py", "approvals/app.py"}
HTTP_DEFINERS = {"sessions/web/checks.py", "approvals/transport.py"}  # define the readers, call none
_JS_WORD = re.compile(r"\b[A-Za-z_]+\b")


def _files(*suffixes: str) -> Iterator[tuple[str, str]]:
    for path in sorted(SRC.rglob("*")):
        if path.suffix in suffixes and "__pycache__" not in path.parts:
            yield path.relative_to(SRC).as_posix(), path.read_text(encoding="utf-8")


def acp_names(rel: str, text: str) -> set[str]:
    """ACP field names a file mentions: string constants in Python, words in JavaScript."""
    if rel.endswith(".py"):
        found: set[str] = set()
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in ACP_FIELDS:
                found.add(node.value)
        return found
    return set(_JS_WORD.findall(text)) & ACP_FIELDS


def mcp_argument_reads(text: str) -> int:
    """Reads of an ``.arguments`` attribute (the raw ``tools/call`` arguments)."""
    return sum(isinstance(n, ast.Attribute) and n.attr == "arguments" for n in ast.walk(ast.parse(text)))


def http_body_reads(text: str) -> int:
    """Calls that read an HTTP request body: the JSON readers, ``request.json()``/``.body()``/``.form()``."""
    count = 0
    for node in ast.walk(ast.parse(text)):
        if not isinstance(node, ast.Call):
            continue
        fn = node.func
        if isinstance(fn, ast.Name) and fn.id in HTTP_BODY_READERS:
            count += 1
        elif (isinstance(fn, ast.Attribute) and fn.attr in ("json", "body", "form") and isinstance(fn.value, ast.Name)
              and fn.value.id == "request"):
            count += 1
    return count


def test_acp_fields_are_read_only_at_the_acp_edge() -> None:
    outside = {}
    at_edge: set[str] = set()
    for rel, text in _files(".py", ".js", ".mjs"):
        names = acp_names(rel, text)
        if rel.startswith(ACP_EDGE):
            at_edge |= names
        elif names:
            outside[rel] = sorted(names)
    assert outside == {}, f"ACP field names outside the ACP edge modules: {outside}"
    assert {"sessionUpdate", "toolCallId", "rawInput", "rawOutput", "stopReason"} <= at_edge  # the scan sees them


def test_the_acp_scan_finds_a_planted_read() -> None:
    assert acp_names("x.py", 'kind = update.get("sessionUpdate")') == {"sessionUpdate"}
    assert acp_names("x.js", "const id = u.toolCallId;") == {"toolCallId"}
    assert acp_names("x.py", "'''sessionUpdate is named in prose only'''") == set()


def test_only_the_typed_messages_module_matches_on_an_update_kind() -> None:
    """The ``match`` on an update's kind is in acp_messages alone; the client only routes its result."""
    matching = [rel for rel, text in _files(".py") if rel.startswith("sessions/")
                and any(isinstance(n, ast.Match) for n in ast.walk(ast.parse(text)))
                and "agent_message_chunk" in acp_names(rel, text)]
    assert matching == ["sessions/agent/acp_messages.py"]


def test_mcp_arguments_are_read_only_by_the_bridge_routes() -> None:
    # The MCP server side is the bridge (the host only forwards); `.arguments` elsewhere is unrelated
    # (the interpreter's call arguments, the demo agent's MCP client).
    outside = {rel: n for rel, text in _files(".py") if rel.startswith(("bridge/", "sessions/"))
               and (n := mcp_argument_reads(text)) and rel not in MCP_EDGE}
    assert outside == {}, f"raw MCP arguments read outside {sorted(MCP_EDGE)}: {outside}"
    assert mcp_argument_reads((SRC / "bridge/server.py").read_text(encoding="utf-8")) == 1
    assert mcp_argument_reads("x = params.arguments['source']") == 1


def test_mcp_arguments_become_typed_values() -> None:
    from clauz3.bridge import schemas

    for spec in schemas.TOOLS:
        required = {"run": {"source": "x"}, "read_skill": {"id": "builtin:x"}}.get(spec.name, {})
        parsed = schemas.validate(spec.name, required)
        assert isinstance(parsed, schemas.ToolArgs) and not isinstance(parsed, dict), spec.name


def test_http_bodies_are_read_only_in_route_modules() -> None:
    reads = {rel: n for rel, text in _files(".py") if (n := http_body_reads(text))}
    outside = {rel: n for rel, n in reads.items() if rel not in HTTP_EDGE}
    assert outside == {}, f"HTTP bodies read outside the route modules: {outside}"
    assert {"sessions/web/routes.py", "sessions/web/workspace_routes.py"} <= set(reads)  # the scan sees them
    assert all(not http_body_reads((SRC / rel).read_text(encoding="utf-8")) for rel in HTTP_DEFINERS)
    assert http_body_reads("async def f(request):\n    return await request.json()\n") == 1


@pytest.mark.parametrize("frame", [
    {"jsonrpc": "2.0", "method": "session/update", "params": {"sessionId": "s", "update": {
        "sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": "hi"}}}},
    {"method": "clauz3/agent", "params": {"kind": "text", "text": "hi"}},
])
def test_the_page_gets_its_own_versioned_json(frame: dict[str, object]) -> None:
    from clauz3.sessions.web.page_frames import page_frame

    assert page_frame(frame) == {"method": "clauz3/agent", "params": {"v": 1, "kind": "text", "text": "hi"}}
