"""`clauz3 start` and `clauz3 resume` as real processes with piped input (05 TRM-1..TRM-11, §14 "Handoff
and resume"): the terminal record, approvals in the browser, fresh tokens on resume, and every refusal."""

from __future__ import annotations

import json
import queue
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest
from page_client import PAGE_HEADER, signed_in
from terminal_helpers import LINK_RE, clauz3, env_for, make_project, stop_reasons, stored, user_texts

from clauz3.sessions.store.lease import acquire_conversation_lock

WAIT = 60.0
CONVERSATION_RE = re.compile(r"Clauz3 conversation: ([0-9a-f-]{36})")


class Live:
    """A running `clauz3 start|resume` with stdin open; output lines (stdout and stderr merged) in order."""

    def __init__(self, tmp: Path, project: Path, *args: str) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "clauz3", *args, "--no-browser"], cwd=project,
                                     env=env_for(tmp), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True)
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def expect(self, pattern: str) -> re.Match[str]:
        regex = re.compile(pattern)
        deadline = time.monotonic() + WAIT
        while True:
            try:
                line = self.lines.get(timeout=max(0.1, deadline - time.monotonic()))
            except queue.Empty:
                line = None
            if line is None:
                pytest.fail(f"no line matching {pattern!r}; output:\n" + "\n".join(self.seen))
            self.seen.append(line)
            match = regex.search(line)
            if match:
                return match

    def send(self, text: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()

    def finish(self) -> int:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        code = self.proc.wait(WAIT)
        while (line := self.lines.get(timeout=WAIT)) is not None:
            self.seen.append(line)
        return code


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return make_project(tmp_path)


def started(tmp: Path, project: Path, prompt: str, *extra: str) -> str:
    """`start demo --prompt …` with input at end: one turn, then the command ends by itself."""
    out = clauz3(tmp, project, "start", "demo", "--no-browser", "--prompt", prompt, *extra, stdin="")
    assert out.returncode == 0, out.stderr
    match = CONVERSATION_RE.search(out.stderr)
    assert match, out.stderr
    cid = match.group(1)
    assert out.stderr.rstrip().endswith(f"Approval service stopped; session saved.\nResume with: clauz3 resume {cid}")
    return cid


def test_start_approves_in_the_browser_and_resume_gets_new_tokens(tmp_path: Path, project: Path) -> None:
    live = Live(tmp_path, project, "start", "demo")
    live.expect(r"^Libraries: email$")
    first = live.expect(LINK_RE.pattern)
    cid = live.expect(CONVERSATION_RE.pattern).group(1)
    state, _frames, frontend = stored(tmp_path, cid)
    assert frontend == "terminal" and state["mode"] == "restricted" and state["libraries"] == ["email"]
    assert state["selection"]["policy"] == "none" and state["selection"]["skills_dirs"] == []
    assert state["selection"]["libraries"] == state["library_fingerprint"]

    live.send('email bob@example.com "Hi"')
    card = live.expect(r"^Approval needed for run (\S+): a program of \d+ lines that guarantees: ")
    assert "email.only(addresses=['bob@example.com'])" in card.string
    link = live.expect(r"^Approve or reject it in the Approver UI \(keep private\): " + LINK_RE.pattern)
    base, key = link.group(1), link.group(3)
    with httpx.Client(timeout=90.0, base_url=base, trust_env=False, follow_redirects=False) as client:
        *_, secret = signed_in(client.get(f"/ui/login?key={key}"))
        decided = client.post(f"/api/requests/{card.group(1)}/decision", json={"decision": "approved_once"},
                              headers={"Origin": base, PAGE_HEADER: secret})
        assert decided.status_code == 200, decided.text
    live.expect(r"Done: the program ran once after approval")
    assert live.finish() == 0
    assert f"Resume with: clauz3 resume {cid}" in live.seen
    _state, frames, _ = stored(tmp_path, cid)
    assert stop_reasons(frames) == ["end_turn"]
    runs = stored(tmp_path, cid)[0]["runs"]
    assert [r["phase"] for r in runs] == ["completed"]

    again = Live(tmp_path, project, "resume", cid)
    fresh = again.expect(LINK_RE.pattern)
    assert again.expect(CONVERSATION_RE.pattern).group(1) == cid
    with httpx.Client(timeout=90.0, base_url=fresh.group(1), trust_env=False, follow_redirects=False) as client:
        for old in (first.group(3), key):  # nothing of the earlier service is accepted
            assert client.get(f"/ui/login?key={old}").status_code == 401
        assert client.get(f"/ui/login?key={fresh.group(3)}").status_code == 200
    assert again.finish() == 0


def test_list_latest_and_id_refusals(tmp_path: Path, project: Path) -> None:
    assert clauz3(tmp_path, project, "resume").stderr.strip() == (
        "error: no saved conversation for this project; start one with clauz3 start <agent>")
    older = started(tmp_path, project, "count to 2")
    newer = started(tmp_path, project, "help")
    listed = clauz3(tmp_path, project, "resume", "--list")
    assert listed.returncode == 0
    rows = listed.stdout.splitlines()
    assert [r.split("  ")[0] for r in rows] == [newer, older]
    assert re.fullmatch(rf"{newer}  demo  \d{{4}}-\d\d-\d\d \d\d:\d\d  help", rows[0])

    latest = clauz3(tmp_path, project, "resume", "--no-browser", stdin="count to 3\n")
    assert latest.returncode == 0, latest.stderr
    assert f"Clauz3 conversation: {newer}" in latest.stderr
    assert latest.stdout.split() == ["1", "2", "3"]  # the reloaded history is not replayed
    assert user_texts(stored(tmp_path, newer)[1]) == ["help", "count to 3"]

    for bad in ("123", newer.replace("-", ""), newer.upper()):
        out = clauz3(tmp_path, project, "resume", bad)
        assert out.returncode == 2 and out.stderr.strip() == f"error: not a conversation id: {bad}"
    unknown = "00000000-0000-4000-8000-000000000000"
    out = clauz3(tmp_path, project, "resume", unknown)
    assert out.returncode == 2 and out.stderr.strip() == f"error: no clauz3 conversation with id {unknown}"

    with acquire_conversation_lock(tmp_path / "data", older):
        out = clauz3(tmp_path, project, "resume", older)
    assert out.returncode == 5
    assert out.stderr.strip() == f"error: conversation {older} is open in another clauz3 process"


def test_changed_libraries_and_policy_refuse_until_accepted(tmp_path: Path, project: Path) -> None:
    policy = tmp_path / "policy.json"
    policy.write_text(json.dumps({"version": 1, "rules": []}))
    cid = started(tmp_path, project, "count to 1", "--policy", str(policy))
    assert stored(tmp_path, cid)[0]["selection"]["policy_path"] == str(policy)

    effects = project / "tools" / "email" / "trusted" / "effects.py"
    effects.write_text(effects.read_text() + "\n# edited\n")
    out = clauz3(tmp_path, project, "resume", cid)
    assert out.returncode == 6
    assert out.stderr.strip() == (
        f"error: cannot resume {cid}: libraries changed since it last ran (updated email); review it in clauz3 ui, "
        "start a new conversation, or pass --accept-changes")
    policy.write_text(json.dumps({"version": 1, "rules": []}, indent=2))
    out = clauz3(tmp_path, project, "resume", cid)
    assert out.returncode == 6
    assert f"cannot resume {cid}: libraries and policy changed since it last ran (updated email; policy file " \
           "edited)" in out.stderr

    accepted = clauz3(tmp_path, project, "resume", cid, "--accept-changes", "--no-browser", stdin="count to 2\n")
    assert accepted.returncode == 0, accepted.stderr
    assert accepted.stdout.split() == ["1", "2"]
    state = stored(tmp_path, cid)[0]
    assert state["approvals_paused"] is True and state["libraries_changed"] is False
    assert state["library_changes"] == []  # delivered with the prompt (SEL-14)
    assert state["selection"]["libraries"] == state["library_fingerprint"]
    assert state["selection"]["policy"] != "none" and state["selection"]["policy_path"] == str(policy)
    assert clauz3(tmp_path, project, "resume", cid, "--no-browser", stdin="").returncode == 0  # recorded now


def test_session_that_cannot_reload_is_refused_and_kept(tmp_path: Path, project: Path) -> None:
    cid = started(tmp_path, project, "count to 1")
    before, frames, _ = stored(tmp_path, cid)
    session_file = tmp_path / "data" / "agents" / "demo" / "sessions" / f"{before['session_id']}.json"
    assert session_file.is_file()
    session_file.unlink()  # the demo now answers session/load with "unknown session"
    out = clauz3(tmp_path, project, "resume", cid, "--no-browser", stdin="count to 2\n")
    assert out.returncode == 2
    assert out.stderr.strip().endswith(
        "error: this agent could not reload the session; its history is kept — open it in clauz3 ui or start a new "
        "conversation")
    after, kept, _ = stored(tmp_path, cid)
    assert after["session_id"] == before["session_id"] and user_texts(kept) == user_texts(frames) == ["count to 1"]
    assert out.stdout == ""


def test_start_refusals_before_anything_starts(tmp_path: Path, project: Path) -> None:
    out = clauz3(tmp_path, project, "start", "nosuchagent")
    assert out.returncode == 2
    assert out.stderr.strip() == ("error: unknown agent 'nosuchagent'; choose one of claude, codex, agy, opencode, "
                                  "pi, demo (see clauz3 start --help)")
    out = clauz3(tmp_path, project, "start", "codex")
    assert out.returncode == 2 and "pass --unrestricted" in out.stderr
    out = clauz3(tmp_path, project, "start", "demo", "--model", "bad model!")
    assert out.returncode == 2 and out.stderr.strip() == "error: invalid --model value"
    assert not (tmp_path / "data").exists()
    for sub in ("start", "resume"):
        helped = clauz3(tmp_path, project, sub, "--help")
        assert helped.returncode == 0 and "--no-browser" in helped.stdout
    assert not (tmp_path / "data").exists()
