"""``run`` end to end through the bridge: proof → approval → execution, records pushed to the host."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from clauz3.approvals.mock import MockApprovalService

from .conftest import EMAIL_PROGRAM, bridge_session, text_of
from .fakehost import FakeHost


async def test_full_run_of_the_email_program(project: Path, host: FakeHost, svc: MockApprovalService,
                                             tmp_path: Path) -> None:
    progress: list[tuple[float, str | None]] = []

    async def on_progress(value: float, total: float | None, message: str | None) -> None:
        progress.append((value, message))

    async with bridge_session(project, host) as session:
        result = await session.call_tool("run", {"source": EMAIL_PROGRAM, "request_id": "req_bridge_0001"},
                                         progress_callback=on_progress)
        text = text_of(result)
        assert not result.is_error, text
        rec = result.structured_content
        assert rec["phase"] == "completed" and rec["exit_code"] == 0, text
        assert rec["request_id"] == "req_bridge_0001" and rec["effects_count"] == 1
        assert rec["stdout"] == "" and rec["stderr"] == ""
        lines = text.splitlines()
        assert lines[:3] == ["request id: req_bridge_0001", "phase: completed", "exit code: 0"]
        assert lines[3].startswith("sandbox: ")
        assert lines[-1].startswith("Status: ")
        status_doc = json.loads(lines[-1][len("Status: "):])
        assert status_doc["phase"] == "completed" and "stdout" not in status_doc

        status = await session.call_tool("status", {})
        assert text_of(status).startswith("req_bridge_0001 completed exit=0 ")
        one = await session.call_tool("status", {"request_id": "req_bridge_0001"})
        assert [r["request_id"] for r in one.structured_content["runs"]] == ["req_bridge_0001"]
        unknown = await session.call_tool("status", {"request_id": "req_unknown_0001"})
        assert unknown.is_error

        again = await session.call_tool("run", {"source": EMAIL_PROGRAM, "request_id": "req_bridge_0001"})
        assert again.structured_content["recorded"] is True and again.structured_content["exit_code"] == 0
    assert len(svc.requests) == 1

    # DEC-5: every phase reached the host as it happened.
    phases = [r["phase"] for r in host.records if r["request_id"] == "req_bridge_0001"]
    assert phases.index("proving") < phases.index("submitting_approval") < phases.index("executing")
    assert phases[-1] == "completed"
    # MCP-7: strictly increasing progress, each message a record.
    assert progress and [p for p, _ in progress] == sorted({p for p, _ in progress})
    assert all(json.loads(m or "{}").get("request_id") == "req_bridge_0001" for _, m in progress)
    # SNAP-2: the snapshot file holds the run.
    snap = json.loads((tmp_path / "runs-status.json").read_text())
    assert snap["schema_version"] == 1 and snap["conversation_id"] == "conv-bridge-test"
    assert [r["phase"] for r in snap["runs"]] == ["completed"]
    # CRED-6: no token or key in results, pushed records or the snapshot.
    blob = text + json.dumps(rec) + json.dumps(host.records) + json.dumps(snap)
    assert svc.token not in blob and svc.verify_key.text not in blob


async def test_invalid_arguments_have_no_side_effects(project: Path, host: FakeHost,
                                                      svc: MockApprovalService) -> None:
    cases: list[tuple[str, dict[str, Any]]] = [
        ("run", {}), ("run", {"source": ""}), ("run", {"source": 3}), ("run", {"source": "x", "bogus": 1}),
        ("run", {"source": "x", "timeout_seconds": 0}), ("run", {"source": "x", "timeout_seconds": 301}),
        ("run", {"source": "x", "timeout_seconds": "5"}), ("run", {"source": "x", "request_id": "a/b"}),
        ("run", {"source": "x" * 262_145}), ("status", {"request_id": 5}), ("tools", {"query": "x" * 201}),
        ("libraries", {"query": 1}), ("read_skill", {}), ("list_skills", {"x": 1}),
    ]
    async with bridge_session(project, host) as session:
        for tool, args in cases:
            result = await session.call_tool(tool, args)
            assert result.is_error, (tool, args)
            assert text_of(result).startswith("invalid arguments: "), (tool, args, text_of(result))
        status = await session.call_tool("status", {})
        assert text_of(status) == "No runs yet."
    assert svc.requests == [] and host.records == []


async def test_no_libraries_refuses_at_once(project: Path, host: FakeHost, svc: MockApprovalService) -> None:
    async with bridge_session(project, host, libraries=False) as session:
        result = await session.call_tool("run", {"source": EMAIL_PROGRAM})
        rec = result.structured_content
        assert (rec["phase"], rec["reason"], rec["exit_code"]) == ("refused", "no_libraries", 2)
        assert "No project libraries selected; ask the user to add libraries." in text_of(result)
        assert text_of(result).splitlines()[-1].startswith("Status: ")
        assert text_of(await session.call_tool("status", {})) == "No runs yet."
    assert svc.requests == []


async def test_skills_and_libraries(project: Path, host: FakeHost) -> None:
    skill_dir = project / ".clauz3" / "skills" / "house-rules"
    skill_dir.mkdir(parents=True)
    (skill_dir / "SKILL.md").write_text("---\nname: house-rules\ndescription: Be kind.\n---\nRules.\n")
    async with bridge_session(project, host) as session:
        listing = await session.call_tool("list_skills", {})
        skills = listing.structured_content["skills"]
        assert skills[0]["id"] == "builtin:clauz3-authoring"
        assert any(s["name"] == "house-rules" for s in skills)
        assert text_of(listing).splitlines()[0].startswith("builtin:clauz3-authoring — clauz3-authoring: ")
        doc = await session.call_tool("read_skill", {"id": "builtin:clauz3-authoring"})
        assert "@clauz3.guarantee(" in doc.structured_content["text"]
        (skill_dir / "SKILL.md").write_text("changed after start")
        house = next(s for s in skills if s["name"] == "house-rules")
        same = await session.call_tool("read_skill", {"id": house["id"]})
        assert same.structured_content["text"] == "---\nname: house-rules\ndescription: Be kind.\n---\nRules.\n"
        for bad in ("../../etc/passwd", "/etc/passwd", "nope", "builtin:../x"):
            result = await session.call_tool("read_skill", {"id": bad})
            assert result.is_error
            assert text_of(result) == "Unknown skill ID; call list_skills to see the available IDs."

        libs = await session.call_tool("libraries", {})
        entries = libs.structured_content["libraries"]
        email = next(e for e in entries if e["domain"] == "email")
        assert email["installed"] is True
        fs = next(e for e in entries if e["domain"] == "filesystem")
        assert fs["installed"] is False and fs["install_command"] == "clauz3 install stdlib:filesystem"
        none = await session.call_tool("libraries", {"query": "zzzz"})
        assert none.structured_content == {"libraries": []} and "No libraries match." in text_of(none)
