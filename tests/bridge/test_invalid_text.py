"""Issue 19: every MCP tool answers every input. A lone surrogate, a NUL or another character that is not
valid text, in any string argument of any tool, gets one clear line (``invalid arguments: …``) at once:
not a hang, not a crash, no run started. Real MCP SDK client over stdio, real bridge process."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from clauz3.approvals.mock import MockApprovalService

from .conftest import EMAIL_PROGRAM, bridge_session, text_of
from .fakehost import FakeHost
from .rawbridge import RawBridge

BAD = {"lone high surrogate": "\ud800", "lone low surrogate": "\udfff", "NUL": "\x00"}


def cases() -> list[tuple[str, str, dict[str, Any]]]:
    out: list[tuple[str, str, dict[str, Any]]] = []
    for what, bad in BAD.items():
        out += [
            (what, "run", {"source": EMAIL_PROGRAM.replace("Hi from clauz3", f"Hi {bad}")}),
            (what, "run", {"source": EMAIL_PROGRAM, "request_id": f"req_{bad}_0001"}),
            (what, "status", {"request_id": f"req_{bad}"}),
            (what, "tools", {"query": f"send{bad}"}),
            (what, "tools", {"view": f"api{bad}"}),
            (what, "libraries", {"query": bad}),
            (what, "read_skill", {"id": f"builtin:{bad}"}),
        ]
    return out


def answer_text(doc: dict[str, Any]) -> tuple[bool, str]:
    result = doc.get("result") or {}
    text = "\n".join(b.get("text", "") for b in result.get("content") or [] if b.get("type") == "text")
    return bool(result.get("isError")), text


def test_invalid_text_in_any_argument_gets_one_clear_line(project: Path, host: FakeHost,
                                                          svc: MockApprovalService) -> None:
    """The MCP SDK client cannot even serialise a lone surrogate, so this client writes the JSON-RPC lines
    itself (``\\ud800`` escapes are valid JSON); the bridge is the real one on the real MCP SDK server."""
    bridge = RawBridge(project, host)
    try:
        bridge.initialize()
        for what, tool, args in cases():
            error, text = answer_text(bridge.response(bridge.call(tool, args), timeout=60))
            assert error, (what, tool, args, text)
            assert text.startswith("invalid arguments: ") and "\n" not in text, (what, tool, text)
            assert "not valid text" in text, (what, tool, text)
        # Bytes that are not UTF-8 at all, inside a JSON string: answered too (as the SDK decodes them).
        assert bridge.proc.stdin is not None
        bridge.proc.stdin.write(b'{"jsonrpc": "2.0", "id": 9001, "method": "tools/call", "params": {"name": '
                                b'"tools", "arguments": {"query": "a\xff\xfeb"}}}\n')
        bridge.proc.stdin.flush()
        assert bridge.response(9001, timeout=60)
        error, text = answer_text(bridge.response(bridge.call("status", {}), timeout=60))
        assert not error and text == "No runs yet.", text  # still answering, and nothing ran
    finally:
        bridge.close()
    assert svc.requests == [] and host.records == []


@pytest.mark.parametrize("char", ["\ud83d", "\x00"], ids=["surrogate", "nul"])
def test_a_run_whose_source_holds_invalid_text_is_answered(project: Path, host: FakeHost,
                                                           svc: MockApprovalService, char: str) -> None:
    """The finding: a ``run`` whose source held a lone surrogate was never answered."""
    source = EMAIL_PROGRAM.replace("Hi from clauz3", f"Hi {char} there")
    bridge = RawBridge(project, host)
    try:
        bridge.initialize()
        error, text = answer_text(bridge.response(bridge.call("run", {"source": source}), timeout=60))
        assert error and "'source'" in text and "not valid text" in text, text
        doc = bridge.response(bridge.call("run", {"source": EMAIL_PROGRAM}), timeout=120)
        assert doc["result"]["structuredContent"]["phase"] == "completed", doc
    finally:
        bridge.close()


async def test_nul_through_the_sdk_client(project: Path, host: FakeHost, svc: MockApprovalService) -> None:
    """What the SDK client can send (a NUL) gets the same one line through it."""
    async with bridge_session(project, host) as session:
        result = await asyncio.wait_for(session.call_tool("tools", {"query": "send\x00"}), 60)
        assert result.is_error and text_of(result).startswith("invalid arguments: "), text_of(result)
        assert "not valid text" in text_of(result)
