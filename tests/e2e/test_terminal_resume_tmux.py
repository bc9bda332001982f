"""Issue acceptance (05 TRM-4, TRM-5, TRM-11): a conversation started in the browser continues in a real
terminal. `clauz3 resume --list`, then `clauz3 resume <id>` under tmux: the demo agent's session is
reloaded (not replayed), a reply streams, Ctrl-C stops the turn, and the next prompt works."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from terminal_helpers import browser_conversation, env_for, make_project, stop_reasons, stored, user_texts

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None,
                                reason="tmux is not installed (apt-get install -y tmux)")

WAIT = 90.0


class Tmux:
    """One private tmux server (its own socket) with one shell window."""

    def __init__(self, tmp: Path, cwd: Path) -> None:
        self.socket = str(tmp / "tmux.sock")
        env = env_for(tmp)
        env.update(PS1="$ ", HISTFILE="/dev/null")
        subprocess.run(["tmux", "-S", self.socket, "-f", "/dev/null", "new-session", "-d", "-s", "t", "-x", "220",
                        "-y", "50", "-c", str(cwd), "bash", "--norc", "--noprofile"], env=env, check=True, timeout=30)
        subprocess.run(["tmux", "-S", self.socket, "set-option", "-g", "history-limit", "20000"], check=True,
                       timeout=30)

    def send(self, *keys: str) -> None:
        subprocess.run(["tmux", "-S", self.socket, "send-keys", "-t", "t", *keys], check=True, timeout=30)

    def type(self, line: str) -> None:
        self.send("-l", line)
        self.send("Enter")

    def screen(self) -> str:
        out = subprocess.run(["tmux", "-S", self.socket, "capture-pane", "-p", "-J", "-S", "-", "-t", "t"],
                             capture_output=True, text=True, check=True, timeout=30)
        return out.stdout

    def wait_for(self, check: Callable[[str], bool], what: str) -> str:
        deadline = time.monotonic() + WAIT
        while True:
            text = self.screen()
            if check(text):
                return text
            if time.monotonic() > deadline:
                pytest.fail(f"timed out waiting for {what}; screen:\n{text[-4000:]}")
            time.sleep(0.1)

    def kill(self) -> None:
        subprocess.run(["tmux", "-S", self.socket, "kill-server"], capture_output=True, timeout=30)


@pytest.fixture
def tmux(tmp_path: Path) -> Iterator[tuple[Tmux, Path]]:
    project = make_project(tmp_path)
    term = Tmux(tmp_path, project)
    try:
        yield term, project
    finally:
        term.kill()


def after(text: str, marker: str) -> str:
    """The screen after the last occurrence of ``marker``."""
    return text.rsplit(marker, 1)[1] if marker in text else ""


def lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.splitlines()]


def test_resume_a_browser_conversation_in_tmux(tmux: tuple[Tmux, Path], tmp_path: Path) -> None:
    term, project = tmux
    cid = browser_conversation(tmp_path, project, "count to 5")
    before, _frames, frontend = stored(tmp_path, cid)
    assert frontend == "browser" and before["session_id"].startswith("demo-")
    python = sys.executable

    term.type(f"{python} -m clauz3 resume --list")
    listed = term.wait_for(lambda s: f"{cid}  demo  " in s, "the --list line")
    row = next(line for line in lines(listed) if line.startswith(cid))
    assert row.endswith("  count to 5")

    term.type(f"{python} -m clauz3 resume {cid} --no-browser")
    opened = term.wait_for(lambda s: "You> " in after(s, f"Clauz3 conversation: {cid}"), "the first You> prompt")
    assert "Approver UI (keep private): http://127.0.0.1:" in opened
    # RSM-3: the demo replays its history on session/load; the terminal shows none of it.
    assert "5" not in lines(after(opened, f"Clauz3 conversation: {cid}"))

    term.type("count to 200")
    streamed = term.wait_for(lambda s: "You> " in after(s, "\n200\n"), "200 and the next prompt")
    numbers = [line for line in lines(after(streamed, "You> count to 200")) if line.isdigit()]
    assert numbers == [str(i) for i in range(1, 201)]

    term.type("count to 1000 slowly")
    term.wait_for(lambda s: "\n3\n" in after(s, "You> count to 1000 slowly"), "the slow count to start")
    term.send("C-c")
    stopped = term.wait_for(lambda s: "You> " in after(s, "[turn stopped]"), "the stop and a new prompt")
    slow = [line for line in lines(after(stopped, "You> count to 1000 slowly")) if line.isdigit()]
    assert 3 <= len(slow) < 1000 and slow == [str(i) for i in range(1, len(slow) + 1)]

    term.type("count to 3")
    third = term.wait_for(lambda s: "You> " in after(s, "You> count to 3\n"), "the reply after Ctrl-C")
    assert [line for line in lines(after(third, "You> count to 3\n")) if line.isdigit()] == ["1", "2", "3"]

    term.type("/exit")
    term.wait_for(lambda s: f"Resume with: clauz3 resume {cid}" in s, "the resume line")
    term.type("echo EXIT=$?")
    term.wait_for(lambda s: "EXIT=0" in s, "exit status 0")

    # TRM-4: Ctrl-C at the prompt ends the command (CLI-7: 130), saved as always.
    term.type(f"{python} -m clauz3 resume --no-browser")
    term.wait_for(lambda s: "You> " in after(s, "EXIT=0"), "the prompt of the latest conversation")
    term.send("C-c")
    term.wait_for(lambda s: f"Resume with: clauz3 resume {cid}" in after(s, "EXIT=0"), "the resume line again")
    term.type("echo EXIT=$?")
    term.wait_for(lambda s: "EXIT=130" in s, "exit status 130")

    state, frames, _ = stored(tmp_path, cid)
    assert user_texts(frames) == ["count to 5", "count to 200", "count to 1000 slowly", "count to 3"]
    assert stop_reasons(frames) == ["end_turn", "end_turn", "cancelled", "end_turn"]
    assert state["session_id"] == before["session_id"]  # reloaded, never a fresh identity (TRM-11)
