"""In-process units: argument checking, the progress slot, catalogue snapshots without imports (MCP-3)."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest

from clauz3.bridge import TOOL_NAMES
from clauz3.bridge.catalogue import snapshot_tools, tools_result
from clauz3.bridge.lifetime import BootstrapError, Credentials, LifetimeLink
from clauz3.bridge.runs_tool import RunOutcome, status_line
from clauz3.bridge.schemas import (
    TOOLS,
    ArgumentError,
    ListSkillsArgs,
    ReadSkillArgs,
    RunArgs,
    ToolsArgs,
    validate,
)
from clauz3.bridge.server import MAX_PROGRESS_MESSAGE, ProgressSlot, progress_message
from clauz3.bridge.skills import AUTHORING_ID, SkillSnapshot
from clauz3.runs.records import Phase, RunRecord


def test_six_tools_in_order() -> None:
    assert tuple(t.name for t in TOOLS) == TOOL_NAMES == ("run", "status", "tools", "libraries", "list_skills",
                                                          "read_skill")


@pytest.mark.parametrize(("tool", "args", "detail"), [
    ("run", {}, "missing required argument 'source'"),
    ("run", {"source": "é" * 131_073}, "larger than 262144 bytes"),
    ("run", {"source": "x", "timeout_seconds": True}, "must be an integer"),
    ("run", {"source": "x", "request_id": "short"}, "8–64 characters"),
    ("tools", {"view": "xml"}, '"api" or "source"'),
    ("nope", {}, "unknown tool"),
])
def test_invalid_arguments(tool: str, args: dict[str, object], detail: str) -> None:
    with pytest.raises(ArgumentError, match=detail):
        validate(tool, args)


def test_valid_arguments_get_defaults() -> None:
    assert validate("run", {"source": "x" * 262_144}) == RunArgs("x" * 262_144, None, 60)
    assert validate("tools", {}) == ToolsArgs("", "api")
    assert validate("run", {"source": "x", "timeout_seconds": 5.0}) == RunArgs("x", None, 5)
    assert validate("read_skill", {"id": "builtin:x"}) == ReadSkillArgs("builtin:x")
    assert validate("list_skills", None) == ListSkillsArgs()


async def test_progress_slot_keeps_only_the_latest() -> None:
    slot = ProgressSlot(asyncio.get_running_loop())
    for i in range(100):
        slot.offer(RunRecord(f"req_{i}"))
    latest = await slot.take()
    assert latest is not None and latest.request_id == "req_99"
    slot.close()
    assert await slot.take() is None


def test_progress_message_fits_4_kib() -> None:
    record = RunRecord("r" * 10, phase=Phase.PROVING, message="m" * 5000, sandbox_detail="s" * 500,
                       obligation={"description": "d" * 3000, "call": "c" * 300, "predicate": "p" * 500,
                                   "result": "r" * 1000},
                       approval={"feedback": "f" * 1000})
    assert len(json.dumps(record.to_json()).encode()) > MAX_PROGRESS_MESSAGE  # so the shrinking is exercised
    text = progress_message(record)
    assert len(text.encode()) <= MAX_PROGRESS_MESSAGE and json.loads(text)["phase"] == "proving"


def test_catalogue_is_read_without_importing_trusted_code(tmp_path: Path) -> None:
    import shutil

    from .conftest import EMAIL_TOOLS

    shutil.copytree(EMAIL_TOOLS, tmp_path / "tools" / "email")
    before = set(sys.modules)
    entries = snapshot_tools([tmp_path / "tools" / "email" / "trusted"])
    assert not any(m.startswith("tools.") or m == "tools" for m in set(sys.modules) - before)
    text, structured = tools_result(entries, "EMAIL at_most", "api")
    assert [e["name"] for e in structured["entries"]] == ["at_most", "recipient_at_most",
                                                          "content_length_at_most"]
    assert text.splitlines()[0].startswith("Effects and contracts")


def test_skills_snapshot_builtin_first_and_no_paths(tmp_path: Path) -> None:
    snap = SkillSnapshot.take(tmp_path)
    text, structured = snap.list_result()
    assert text.startswith(AUTHORING_ID)
    assert structured["skills"][0]["id"] == AUTHORING_ID and len(structured["skills"][0]["preview"]) <= 200
    assert snap.read("../../etc/passwd") is None and snap.read(AUTHORING_ID) is not None


def test_run_text_layout() -> None:
    record = RunRecord("req_x_000001", phase=Phase.REFUSED, exit_code=1, sandbox="unavailable",
                       reason="proof_failed", message="not proved")
    rec = record.to_json()
    text = RunOutcome(record, "out\n", "err\n").text().splitlines()
    assert text[:4] == ["request id: req_x_000001", "phase: refused", "exit code: 1", "sandbox: unavailable"]
    assert text[4:8] == ["--- output ---", "out", "--- errors ---", "err"]
    assert "not proved" in text and text[-1].startswith("Status: {")
    assert status_line({**rec, "elapsed_seconds": 1.25}) == "req_x_000001 refused exit=1 1.2s proof_failed"


def test_credentials_are_checked_and_never_printed() -> None:
    creds = Credentials.from_json({"service_url": "http://127.0.0.1:1", "submission_token": "t" * 43,
                                   "verify_key": "k" * 43, "proof_timeout_seconds": 30})
    assert "t" * 43 not in repr(creds) and "k" * 43 not in repr(creds)
    with pytest.raises(BootstrapError):
        Credentials.from_json({"service_url": "x", "submission_token": "", "verify_key": "k"})
    with pytest.raises(BootstrapError):
        LifetimeLink.from_environment({})


def test_check_prints_the_six_names() -> None:
    import subprocess

    out = subprocess.run([sys.executable, "-P", "-m", "clauz3.bridge", "--check"], capture_output=True,
                         text=True, timeout=60, env={"PATH": "/usr/bin:/bin"})
    assert out.returncode == 0 and json.loads(out.stdout) == list(TOOL_NAMES)
