"""05 §14 "Tutorials" and "Handoff" acceptance lines: working copies under `<data>/tutorials/`
(TUT-1, TUT-2), reset clearing only that tutorial's state (TUT-3), tutorial paths refused as
ordinary folders (TUT-5), and handoffs scoped to the workspace (HND-1, HND-2, DATA-2)."""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from sessions_harness import recv, recv_until, signed_in, state_is

from clauz3.approvals.profiles import ProfileStore
from clauz3.layers.selection import defaults_path, save_defaults
from clauz3.sessions.conversation import tutorials as copies
from clauz3.sessions.store.store import ConversationStore
from clauz3.storage.journals import journal_path
from clauz3.tutorials import TUTORIALS

LINK = "Open this private link: "


def launch_tutorial(tmp: Path, launch: Path) -> None:
    """`clauz3 ui demo --tutorial` from ``launch`` until it prints its link, then Ctrl-C."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAUZ3_")}
    env.update(CLAUZ3_HOME=str(tmp / "data"), TMPDIR=str(tmp / "tmpdir"))
    proc = subprocess.Popen([sys.executable, "-m", "clauz3", "ui", "demo", "--tutorial", "--no-browser"],
                            cwd=launch, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith(LINK), (line, proc.stderr.read() if proc.poll() is not None else "")
        proc.send_signal(signal.SIGINT)
        assert proc.wait(90) == 130
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_first_open_makes_the_copy_and_a_user_edit_survives_restart(tmp_path: Path) -> None:
    (tmp_path / "tmpdir").mkdir()
    launch = tmp_path / "launch"
    launch.mkdir()
    (launch / "mine.txt").write_text("the launch folder")
    launch_tutorial(tmp_path, launch)
    copy = tmp_path / "data" / "tutorials" / "email"
    marker = json.loads((copy / ".clauz3-tutorial.json").read_text())
    assert marker["schema_version"] == 1 and marker["id"] == "email"
    assert marker["version"] == TUTORIALS["email"].version and isinstance(marker["created_at"], (int, float))
    assert (copy / "AGENTS.md").is_file() and (copy / "tools" / "email" / "trusted" / "effects.py").is_file()
    assert not (copy / "tools" / "email" / ".clauz3-origin.json").exists()  # authored tree, no origin record
    assert sorted(p.name for p in launch.iterdir()) == ["mine.txt"]  # launch folder untouched
    assert [p.name for p in (tmp_path / "data" / "tutorials").iterdir()] == ["email"]  # no staging left

    guide = copy / "AGENTS.md"
    guide.write_text(guide.read_text() + "\nMy own note.\n")
    launch_tutorial(tmp_path, launch)
    assert guide.read_text().endswith("\nMy own note.\n")
    assert json.loads((copy / ".clauz3-tutorial.json").read_text()) == marker


def test_copy_is_reused_across_an_upgrade_and_reports_the_newer_template(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    copy = copies.prepare(data, "email")
    assert copy == Path(os.path.realpath(data / "tutorials" / "email"))
    assert copies.newer_available(copy, "email") is False
    effects = copy / "tools" / "email" / "trusted" / "effects.py"
    effects.write_text(effects.read_text() + "\n# my edit\n")
    upgraded = dataclasses.replace(TUTORIALS["email"], version=TUTORIALS["email"].version + 1)
    monkeypatch.setitem(TUTORIALS, "email", upgraded)
    assert copies.prepare(data, "email") == copy
    assert effects.read_text().endswith("# my edit\n")
    assert copies.newer_available(copy, "email") is True
    assert copies.reset(data, "email") == copy
    assert not effects.read_text().endswith("# my edit\n") and copies.newer_available(copy, "email") is False


def test_reset_state_clears_only_that_tutorial(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    copy = copies.prepare(data, "email")
    other = tmp_path / "other"
    other.mkdir()
    other_s = os.path.realpath(other)
    for project in (copy, Path(other_s)):
        save_defaults(project, [], data)
        journal = Path(journal_path(data, project, "run_x_0001"))
        journal.parent.mkdir(parents=True, exist_ok=True)
        journal.write_text("")
    profiles = ProfileStore(data / "approval-profiles.sqlite")
    for project in (str(copy), other_s):
        profiles.append(project=project, record={"request_id": "r"}, signature="sig", basis=None,
                        decision="rejected", decided_by="human", remember=True)
    copies.forget_state(data, str(copy))
    assert profiles.snapshot(str(copy))["rules"] == [] and profiles.snapshot(str(copy))["history"] == []
    assert len(profiles.snapshot(other_s)["rules"]) == 1 and len(profiles.snapshot(other_s)["history"]) == 1
    profiles.close()
    assert not defaults_path(copy, data).exists() and defaults_path(Path(other_s), data).exists()
    assert not Path(journal_path(data, copy, "run_x_0001")).exists()
    assert Path(journal_path(data, Path(other_s), "run_x_0001")).exists()


def test_reset_refuses_a_symlinked_copy_or_tutorials_folder(tmp_path: Path) -> None:
    data = tmp_path / "data"
    (data / "tutorials").mkdir(parents=True)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "keep.txt").write_text("keep")
    (data / "tutorials" / "email").symlink_to(elsewhere)
    with pytest.raises(copies.TutorialError, match="symbolic link"):
        copies.reset(data, "email")
    with pytest.raises(copies.TutorialError, match="symbolic link"):
        copies.prepare(data, "email")
    assert (elsewhere / "keep.txt").read_text() == "keep" and sorted(os.listdir(elsewhere)) == ["keep.txt"]


async def test_tutorial_folders_cannot_be_opened_as_ordinary_workspaces(tmp_path: Path) -> None:
    async with signed_in(tmp_path) as svc:
        data = Path(os.path.realpath(svc.host.data_dir))
        copy = copies.prepare(data, "email")
        (copy / "sub").mkdir()
        ws = await svc.ws()
        await recv(ws)
        await recv_until(ws, state_is(agent_status="ready"))
        project = svc.host.project
        for path in (copy, copy / "sub", data / "tutorials"):
            await ws.send(json.dumps({"method": "clauz3/workspace", "params": {"path": str(path)}}))
            refused, _ = await recv_until(ws, lambda f: f["method"] == "clauz3/notice")
            assert refused["params"]["code"] == "workspace_invalid"
            assert refused["params"]["text"] == "Open tutorials from the Tutorials list.", path
        assert svc.host.project == project
        async with svc.client(cookies=svc.cookies()) as c:
            recent = (await c.get("/api/workspaces")).json()["recent"]
        assert not any(r["path"].startswith(str(data)) for r in recent)
        await ws.close()


def test_install_into_a_tutorial_copy_is_refused(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    copy = copies.prepare(data, "email")
    env = dict(os.environ, CLAUZ3_HOME=str(data), CLAUZ3_CACHE=str(tmp_path / "cache"))
    out = subprocess.run([sys.executable, "-m", "clauz3", "install", "stdlib:env", "--into", str(copy), "--yes"],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and out.stderr.startswith("error: ") and out.stderr.count("\n") == 1
    assert not (copy / ".clauz3" / "tools" / "env").exists()


async def test_handoff_is_scoped_to_this_workspace(tmp_path: Path) -> None:
    async with signed_in(tmp_path) as svc:
        data = Path(svc.host.data_dir)
        other = tmp_path / "other-project"
        other.mkdir()
        store = ConversationStore.open(data, os.path.realpath(other))
        foreign = store.create(agent="demo", title="Someone else's").id
        ws = await svc.ws()
        cid = (await recv(ws))["params"]["state"]["conversation_id"]
        await recv_until(ws, state_is(agent_status="ready"))
        async with svc.client(cookies=svc.cookies()) as c:
            refused = await c.post("/api/chat/handoff", json={"conversation_id": foreign},
                                   headers={"Origin": svc.origin})
            assert refused.status_code == 404
            assert refused.json()["error"] == {"code": "not_found", "message": "No such conversation in this workspace"}
            assert not (data / "handoffs").exists() or list((data / "handoffs").iterdir()) == []
            first = (await c.post("/api/chat/handoff", json={"conversation_id": cid},
                                  headers={"Origin": svc.origin})).json()
        lines = first["text"].splitlines()
        assert lines[1] == f"Project: {svc.host.project}" and os.path.isabs(lines[1].removeprefix("Project: "))
        assert lines[3] == f"Handoff file: {first['path']}" and os.path.isabs(first["path"])
        assert lines[5] == ("The file holds this conversation's messages, raw tool calls and results, run "
                            "diagnostics and settings.")
        assert (os.stat(data / "handoffs").st_mode & 0o777) == 0o700
        text = Path(first["path"]).read_text()
        assert "127.0.0.1:" not in text and "lifetime" not in text.lower()
        await ws.close()


async def test_symlinked_handoffs_folder_fails_naming_it(tmp_path: Path) -> None:
    async with signed_in(tmp_path) as svc:
        data = Path(svc.host.data_dir)
        target = tmp_path / "elsewhere"
        target.mkdir()
        (data / "handoffs").symlink_to(target)
        ws = await svc.ws()
        cid = (await recv(ws))["params"]["state"]["conversation_id"]
        await recv_until(ws, state_is(agent_status="ready"))
        async with svc.client(cookies=svc.cookies()) as c:
            response = await c.post("/api/chat/handoff", json={"conversation_id": cid},
                                    headers={"Origin": svc.origin})
        await ws.close()
    assert list(target.iterdir()) == []
    assert response.status_code >= 400 and str(data / "handoffs") in response.text


def test_state_reports_the_newer_template(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from clauz3.sessions.conversation.tutorials import tutorial_newer

    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    copy = copies.prepare(data, "email")
    assert tutorial_newer(str(copy), "email") is False
    upgraded = dataclasses.replace(TUTORIALS["email"], version=TUTORIALS["email"].version + 1)
    monkeypatch.setitem(TUTORIALS, "email", upgraded)
    marker = copy / ".clauz3-tutorial.json"
    os.utime(marker, (marker.stat().st_atime, marker.stat().st_mtime + 1))  # a new key for the cache
    assert tutorial_newer(str(copy), "email") is True
    assert tutorial_newer(str(copy), None) is False
