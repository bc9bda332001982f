"""tree_rss (issue 22): the bridge is a stdio MCP server that submits runs and reads its ledger; it signs and
checks no receipt, so it must not map cryptography (about 10 MiB resident, for as long as the conversation),
neither through the MCP SDK's package inits nor through the run ledger. Read from the real bridge process's
``/proc/PID/maps`` after it served a whole run (submit, approval by the mock authority, ledger, status)."""

from __future__ import annotations

import os
from pathlib import Path

from clauz3.approvals.mock import MockApprovalService

from .conftest import EMAIL_PROGRAM, bridge_session, text_of
from .fakehost import FakeHost


def _bridges(project: Path) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as fh:
                argv = fh.read().split(b"\0")
        except OSError:
            continue
        if b"clauz3.bridge" in argv and str(project).encode() in argv:
            found.append(int(entry))
    return found


def _mapped(pid: int) -> str:
    with open(f"/proc/{pid}/maps", encoding="utf-8", errors="replace") as fh:
        return fh.read()


async def test_the_bridge_serves_a_run_without_cryptography(project: Path, host: FakeHost,
                                                              svc: MockApprovalService) -> None:
    async with bridge_session(project, host) as session:
        result = await session.call_tool("run", {"source": EMAIL_PROGRAM, "request_id": "req_footprint_01"})
        assert not result.is_error, text_of(result)
        assert result.structured_content["phase"] == "completed"
        status = await session.call_tool("status", {"request_id": "req_footprint_01"})
        assert "completed" in text_of(status)
        pids = _bridges(project)
        assert len(pids) == 1
        maps = _mapped(pids[0])
    assert "pydantic_core" in maps  # the check reads the real server's mappings (it serves with the SDK)
    assert "cryptography" not in maps and "_cffi_backend" not in maps
