"""02 acceptance for the launcher and process model with the real `clauz3 ui demo --tutorial` stack
(launcher, service, supervisor, demo agent, MCP bridge, run worker):

- ``ui.json`` is written 0600 inside the 0700 ``<tmp>`` before the service starts and is gone once the
  service is ready; no agent, bridge or worker environment holds ``CLAUZ3_UI_CONFIG``, the login token or
  the session secret (LAUNCH-2, LAUNCH-3, PROC-8).
- On a TTY, Enter prints a new private link and the previous one gets 401 (LAUNCH-7, AUTH-1).
- ``kill -9`` of the service while a run awaits approval: 2 s later no supervisor, adapter, bridge, worker
  or effect child of it is alive (PROC-5); the launcher reports the death (LAUNCH-8, exit 70).
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import pty
import queue
import re
import signal
import sqlite3
import stat
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest
from page_client import page_socket, signed_in
from test_ui_launcher import LINK, env_for

from clauz3.sessions.launch import launcher as launcher_module
from clauz3.sessions.launch.config import CONFIG_ENV, LaunchConfig
from clauz3.tutorials import EMAIL

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for proc_tree
import proc_tree
from proc_tree import children, cmdline, wait_gone


class Spawned(Exception):
    pass


def test_ui_json_is_0600_in_a_0700_dir_when_the_service_starts(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, Any] = {}
    project = tmp_path / "proj"
    project.mkdir()
    temp_root = tmp_path / "tmpdir"
    temp_root.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp_root))

    def fake_popen(argv: list[str], **kw: Any) -> Any:
        path = Path(kw["env"][CONFIG_ENV])
        info = os.lstat(path)
        seen.update(argv=argv, pass_fds=kw["pass_fds"], file_mode=stat.S_IMODE(info.st_mode),
                    regular=stat.S_ISREG(info.st_mode), dir_mode=stat.S_IMODE(os.lstat(path.parent).st_mode),
                    name=path.name, parent=path.parent.parent, prefix=path.parent.name,
                    content=json.loads(path.read_text()), new_session=kw.get("start_new_session"))
        raise Spawned()

    monkeypatch.setattr(launcher_module.subprocess, "Popen", fake_popen)
    config = LaunchConfig(agent="demo", project=str(project), data_dir=str(tmp_path / "data"), tmp_dir="",
                          port=0, login_token="")
    with pytest.raises(Spawned):
        launcher_module.Launcher(config, open_browser=False).run()
    assert seen["regular"] and seen["file_mode"] == 0o600 and seen["dir_mode"] == 0o700
    assert seen["name"] == "ui.json" and seen["prefix"].startswith("clauz3-ui-")
    assert seen["parent"] == temp_root and seen["new_session"] is True
    assert seen["argv"][1:4] == ["-I", "-m", "clauz3.sessions.web.service"] and len(seen["pass_fds"]) == 2
    assert seen["content"]["login_token"] and seen["content"]["project"] == str(project)
    assert not any(k in seen["content"] for k in ("signing_key", "submission_token", "session_secret"))
    assert list(temp_root.iterdir()) == []  # <tmp> removed on the way out
    # ui.json is never overwritten or followed (O_CREAT|O_EXCL|O_NOFOLLOW).
    target = tmp_path / "victim"
    target.write_text("keep")
    (tmp_path / "ui.json").symlink_to(target)
    with pytest.raises(FileExistsError):
        launcher_module.write_config(tmp_path / "ui.json", config)
    assert target.read_text() == "keep"


class Lines:
    """The launcher's standard output, line by line, with a timeout (a reader thread feeds a queue)."""

    def __init__(self, stream: Any) -> None:
        self.queue: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._pump, args=(stream,), daemon=True).start()

    def _pump(self, stream: Any) -> None:
        for line in stream:
            self.queue.put(line)

    def next(self, timeout: float) -> str:
        try:
            return self.queue.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError("no output from the launcher") from None


async def sign_in_and_await_approval(link: str) -> None:
    base = link.split("/ui/login")[0]
    async with httpx.AsyncClient(timeout=90.0, trust_env=False) as client:
        response = await client.get(link)
        name, value, secret = signed_in(response)
    ws = await page_socket(base.replace("http", "ws") + "/api/chat/acp", origin=base, cookie=f"{name}={value}",
                           secret=secret, max_size=None)
    try:
        restore = json.loads(await asyncio.wait_for(ws.recv(), 90))
        cid = restore["params"]["state"]["conversation_id"]
        sent = False
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 120
        frame = restore
        while True:
            # The restore frame carries the state too: an agent already ready when the page connects (the
            # launch prespawns it, issue 13) sends no further state frame until something changes, so waiting
            # for a state frame saying "ready" hung whenever the machine was fast enough.
            params = frame["params"]["state"] if frame["method"] == "clauz3/restore" else frame["params"]
            if frame["method"] in ("clauz3/state", "clauz3/restore") and params.get("agent_status") == "ready" \
                    and not sent:
                await ws.send(json.dumps({"method": "session/prompt", "params": {
                    "conversation_id": cid, "prompt": EMAIL.starters[0].text}}))
                sent = True
            if frame["method"] == "clauz3/state" and any(r.get("phase") == "awaiting_approval"
                                                         for r in params.get("runs", [])):
                return
            try:
                frame = json.loads(await asyncio.wait_for(ws.recv(), max(0.1, deadline - loop.time())))
            except TimeoutError:
                what = "a run awaiting approval" if sent else "the agent to be ready"
                raise AssertionError(f"waited 120 s for {what} (prompt sent: {sent})") from None
    finally:
        await ws.close()


def test_enter_link_env_and_kill_9_of_the_service_during_approval(tmp_path: Path) -> None:
    env = env_for(tmp_path)
    master, slave = pty.openpty()
    launcher = subprocess.Popen([sys.executable, "-m", "clauz3", "ui", "demo", "--tutorial", "--no-browser"],
                                cwd=tmp_path, env=env, stdin=slave, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
    os.close(slave)
    try:
        assert launcher.stdout is not None and launcher.stderr is not None
        out = Lines(launcher.stdout)
        first = out.next(90)
        assert first.startswith(LINK), (first, launcher.stderr.read() if launcher.poll() is not None else "")
        first_link = first[len(LINK):].strip()
        assert out.next(90) == "clauz3 workspace is running. Press Ctrl-C to stop.\n"
        assert out.next(90) == "Press Enter for a new private link.\n"
        # Ready: ui.json is gone, <tmp> is private.
        [tmp_dir] = list((tmp_path / "tmpdir").iterdir())
        assert tmp_dir.name.startswith("clauz3-ui-") and stat.S_IMODE(tmp_dir.stat().st_mode) == 0o700
        assert not (tmp_dir / "ui.json").exists()

        os.write(master, b"\n")
        fresh = out.next(90)
        assert fresh.startswith(LINK)
        link = fresh[len(LINK):].strip()
        assert link != first_link
        assert httpx.get(first_link, timeout=90.0, follow_redirects=False, trust_env=False).status_code == 401

        asyncio.run(sign_in_and_await_approval(link))
        [service] = children(launcher.pid)
        assert cmdline(service)[1:4] == ["-I", "-m", "clauz3.sessions.web.service"]
        # (The service's own /proc environ still shows its start-up block; what counts is its children's.)
        descendants = proc_tree.descendants(service)
        modules = {m for pid in descendants for m in cmdline(pid)}
        for needed in ("clauz3.sessions.agent.supervisor", "clauz3.agents.demo", "clauz3.bridge"):
            assert needed in modules, (needed, sorted(modules))
        # The awaiting run's worker: a cold ``clauz3.runs.worker`` or a fork of the warm template (01 WARM-1).
        workers = [p for p in descendants if {"clauz3.runs.worker", "clauz3.bridge.warm"} & set(cmdline(p))]
        assert "clauz3.runs.worker" in modules or len(workers) >= 2, [cmdline(p) for p in descendants]

        login_tokens = [first_link.split("key=")[1], link.split("key=")[1]]
        key = (tmp_path / "data" / "ui-session.key").read_bytes()
        secret_spellings = [t.encode() for t in login_tokens] + [key, key.hex().encode(), base64.b64encode(key),
                                                                 base64.urlsafe_b64encode(key).rstrip(b"=")]
        checked = 0
        for pid in descendants:
            try:
                environ = Path(f"/proc/{pid}/environ").read_bytes()
            except OSError:
                continue
            checked += 1
            names = {item.split(b"=", 1)[0] for item in environ.split(b"\0") if item}
            assert CONFIG_ENV.encode() not in names, cmdline(pid)
            for spelling in secret_spellings:
                assert spelling not in environ, cmdline(pid)
            assert not re.search(rb"CLAUZ3_(APPROVAL|SUBMISSION|DECISION|SIGNING)[A-Z_]*=", environ), cmdline(pid)
        assert checked >= 4

        os.kill(service, signal.SIGKILL)
        wait_gone(descendants, "the service's supervisor, adapter, bridge and worker after its kill -9 (PROC-5)")
        assert launcher.wait(90) == 70
        assert "error: the workspace service stopped unexpectedly" in launcher.stderr.read()
        assert list((tmp_path / "tmpdir").iterdir()) == []
    finally:
        os.close(master)
        if launcher.poll() is None:
            launcher.kill()
            launcher.wait()


def rows(db: Path) -> list[tuple[str, str]]:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        return sorted(conn.execute("SELECT id, project FROM conversations").fetchall())


def listening_addresses(port: int) -> set[str]:
    """Local addresses of LISTEN sockets on ``port`` (IPv4 and IPv6 tables of /proc/net)."""
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as fh:
            for line in fh.readlines()[1:]:
                fields = line.split()
                address, hex_port = fields[1].rsplit(":", 1)
                if int(hex_port, 16) == port and fields[3] == "0A":
                    found.add(address)
    return found


async def first_frames(link: str) -> list[dict[str, Any]]:
    base = link.split("/ui/login")[0]
    async with httpx.AsyncClient(timeout=90.0, trust_env=False) as client:
        response = await client.get(link)
        name, value, secret = signed_in(response)
        page = await client.get(base + "/ui")  # the client keeps the cookie
        assert page.status_code == 200
    ws = await page_socket(base.replace("http", "ws") + "/api/chat/acp", origin=base, cookie=f"{name}={value}",
                           secret=secret, max_size=None)
    frames: list[dict[str, Any]] = []
    try:
        while True:
            try:
                frame = json.loads(await asyncio.wait_for(ws.recv(), 90))
            except TimeoutError:
                raise AssertionError(f"waited 90 s for the agent to be ready; frames: {frames}") from None
            frames.append(frame)
            if frame["method"] == "clauz3/state" and frame["params"]["agent_status"] == "ready":
                return frames
    finally:
        await ws.close()


def test_no_agent_falls_back_to_demo_with_the_notice_and_listens_on_loopback_only(tmp_path: Path) -> None:
    env = env_for(tmp_path)
    empty = tmp_path / "bin"
    empty.mkdir()
    env["PATH"] = str(empty)  # no pinned claude adapter anywhere on PATH
    project = tmp_path / "proj"
    project.mkdir()
    launcher = subprocess.Popen([sys.executable, "-m", "clauz3", "ui", "--no-browser"], cwd=project, env=env,
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    text = ("Claude is not installed; using the Demo agent (scripted, no model). To use Claude: npm install -g "
            "@agentclientprotocol/claude-agent-acp@0.101.0")
    try:
        assert launcher.stdout is not None and launcher.stderr is not None
        out = Lines(launcher.stdout)
        first = out.next(90)
        assert first.startswith(LINK), first
        link = first[len(LINK):].strip()
        port = int(link.split(":")[2].split("/")[0])
        assert listening_addresses(port) == {"0100007F"}  # 127.0.0.1 only, no IPv6, no wildcard
        frames = asyncio.run(first_frames(link))
        assert frames[0]["method"] == "clauz3/restore"
        assert frames[0]["params"]["state"]["agent"] == "demo"
        notices = [f["params"] for f in frames if f["method"] == "clauz3/notice"]
        assert {"level": "info", "code": "claude_not_installed", "text": text} in [
            {k: n.get(k) for k in ("level", "code", "text")} for n in notices]
        # A second `clauz3 ui` on the same project: exit 5, the already-open message, no rows; another works.
        db = tmp_path / "data" / "conversations.sqlite"
        before = rows(db)
        second = subprocess.run([sys.executable, "-m", "clauz3", "ui", "demo", "--no-browser"], cwd=project,
                                env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
        assert second.returncode == 5
        assert second.stderr.strip() == (f"error: this project is already open in clauz3 ui at "
                                         f"http://127.0.0.1:{port}/ui; use that tab or stop it first")
        assert rows(db) == before
        other = tmp_path / "other"
        other.mkdir()
        third = subprocess.Popen([sys.executable, "-m", "clauz3", "ui", "demo", "--no-browser"], cwd=other, env=env,
                                 stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            assert third.stdout is not None and third.stdout.readline().startswith(LINK)
        finally:
            third.send_signal(signal.SIGINT)
            assert third.wait(90) == 130
        launcher.send_signal(signal.SIGINT)
        assert launcher.wait(90) == 130
        assert f"warning: {text}" in launcher.stderr.read().splitlines()
    finally:
        if launcher.poll() is None:
            launcher.kill()
            launcher.wait()
