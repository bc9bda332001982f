"""Issue 22's smaller CLI items: a CLAUZ3_HOME made with the usual permissions names the chmod that
fixes it; `resume` where nothing was saved says where the saved conversations are and how to resume
one; hints are printed as the person invoked clauz3 (`uv run clauz3 …`); each subcommand's --help
ends with examples, and the ones that need no running workspace work as pasted. Real processes."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from clauz3.cli import EXAMPLES
from clauz3.sessions.agent.acp_messages import AGENT_METHOD, AgentText, to_frame
from clauz3.sessions.store.store import ConversationStore

ROOT = Path(__file__).resolve().parents[2]
EMAIL_TOOLS = ROOT / "src" / "clauz3" / "tutorials" / "email" / "tools" / "email"


UV = shutil.which("uv")


def clauz3(cwd: Path, home: Path, *args: str, uv: bool = False) -> subprocess.CompletedProcess[str]:
    """clauz3 as a person starts it: ``clauz3 …``, or with ``uv=True`` ``uv run clauz3 …`` (the README's
    way; this checkout's environment, no sync, no network)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUZ3_", "UV_RUN"))}
    env["CLAUZ3_HOME"] = str(home)
    if uv:
        if UV is None:
            pytest.skip("uv is not installed")
        command = [UV, "run", "--project", str(ROOT), "--no-sync", "--offline", "clauz3", *args]
    else:
        command = [sys.executable, "-m", "clauz3", *args]
    return subprocess.run(command, cwd=cwd, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=300)


def test_usual_permissions_name_the_chmod_that_fixes_them(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir(mode=0o755)
    home.chmod(0o755)
    out = clauz3(tmp_path, home, "ui", "demo", "--no-browser", "--port", "0")
    assert out.returncode == 2
    assert f"insecure permissions on {home}" in out.stderr
    assert f"chmod 700 {home}" in out.stderr, out.stderr


def test_resume_with_nothing_here_says_where_conversations_are(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir(mode=0o700)
    tutorial = str((home / "tutorials" / "email").resolve())
    store = ConversationStore.open(home, tutorial)
    cid = store.create(agent="demo").id
    store.append(cid, turn=1, method="clauz3/user",
                 frame={"method": "clauz3/user", "params": {"turn": 1, "text": "hi", "attachments": []}})
    store.append(cid, turn=1, method=AGENT_METHOD, frame=to_frame(AgentText("hello")))
    store.index_turn(cid, 1)
    store.close()
    repo = tmp_path / "repo"
    repo.mkdir()
    out = clauz3(repo, home, "resume", uv=True)
    assert out.returncode == 2
    said = out.stderr
    assert said.startswith("error: no saved conversation for this project; start one with uv run clauz3 start <agent>")
    assert tutorial in said and f"uv run clauz3 resume {cid}" in said, said


@pytest.mark.parametrize("uv", [False, True])
def test_help_pages_end_with_examples_as_invoked(tmp_path: Path, uv: bool) -> None:
    for name in EXAMPLES:
        out = clauz3(tmp_path, tmp_path / "home", name, "--help", uv=uv)
        assert out.returncode == 0, (name, out.stderr)
        examples = out.stdout.split("examples:\n", 1)[1]
        first = examples.splitlines()[0].strip()
        assert first.startswith(("uv run clauz3 " if uv else "clauz3 ") + name), (name, first)


def test_examples_that_need_no_workspace_work_as_pasted(tmp_path: Path) -> None:
    project = tmp_path / "project"
    shutil.copytree(EMAIL_TOOLS, project / "tools" / "email")
    home = tmp_path / "home"
    home.mkdir(mode=0o700)
    runnable = ("tools", "libraries", "install", "lint")
    for name in runnable:
        for line in EXAMPLES[name]:
            words = line.split("#", 1)[0].split()
            assert words[0] == "clauz3"
            out = clauz3(project, home, *words[1:])
            assert out.returncode == 0, (line, out.stdout, out.stderr)


def test_printed_install_hints_follow_the_invocation(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir(mode=0o700)
    plain = clauz3(tmp_path, home, "libraries", "files")
    via_uv = clauz3(tmp_path, home, "libraries", "files", uv=True)
    assert plain.returncode == via_uv.returncode == 0, (plain.stderr, via_uv.stderr)
    assert "Install with: clauz3 install stdlib:filesystem" in plain.stdout
    assert "Install with: uv run clauz3 install stdlib:filesystem" in via_uv.stdout
