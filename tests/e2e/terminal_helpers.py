"""Shared by the terminal tests: a project, a browser conversation made through the real `clauz3 ui`
service (launcher, service, demo agent, real bridge) over its WebSocket, and store reads."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
from page_client import page_socket, signed_in

ROOT = Path(__file__).resolve().parents[2]
TUTORIAL_TOOLS = ROOT / "src" / "clauz3" / "tutorials" / "email" / "tools"
LINK_RE = re.compile(r"(http://127\.0\.0\.1:(\d+))/ui/login\?key=(\S+)")


def make_project(tmp: Path) -> Path:
    project = tmp / "project"
    project.mkdir()
    shutil.copytree(TUTORIAL_TOOLS, project / "tools")
    return Path(os.path.realpath(project))


def env_for(tmp: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUZ3_", "TMUX"))}
    env["CLAUZ3_HOME"] = str(tmp / "data")
    return env


def clauz3(tmp: Path, project: Path, *args: str, stdin: str | None = None, timeout: float = 90
           ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "clauz3", *args], cwd=project, env=env_for(tmp), input=stdin,
                          capture_output=True, text=True, timeout=timeout)


async def _browser_turn(base: str, key: str, port: str, prompt: str) -> str:
    async with httpx.AsyncClient(timeout=90.0, base_url=base, trust_env=False, follow_redirects=False) as client:
        response = await client.get(f"/ui/login?key={key}")
        name, value, secret = signed_in(response)
    url = f"ws://127.0.0.1:{port}/api/chat/acp"
    async with await page_socket(url, origin=base, cookie=f"{name}={value}", secret=secret, max_size=None) as ws:
        conversation_id = None
        sent = False
        while True:
            frame = json.loads(await asyncio.wait_for(ws.recv(), 60))
            method = frame.get("method")
            state = frame["params"]["state"] if method == "clauz3/restore" else \
                frame["params"] if method == "clauz3/state" else None
            if state is not None:
                conversation_id = state["conversation_id"]
                if state["agent_status"] == "ready" and not sent:
                    sent = True
                    await ws.send(json.dumps({"method": "session/prompt", "params": {
                        "conversation_id": conversation_id, "prompt": prompt}}))
            if method == "clauz3/turn_end":
                assert frame["params"]["stop_reason"] == "end_turn", frame
                assert conversation_id is not None
                return conversation_id


def browser_conversation(tmp: Path, project: Path, prompt: str) -> str:
    """One turn typed "in the browser" of `clauz3 ui demo`, then the workspace is stopped with Ctrl-C."""
    proc = subprocess.Popen([sys.executable, "-m", "clauz3", "ui", "demo", "--no-browser"], cwd=project,
                            env=env_for(tmp), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        match = LINK_RE.search(line)
        assert match, (line, proc.stderr.read() if proc.poll() is not None and proc.stderr else "")
        base, port, key = match.group(1), match.group(2), match.group(3)
        conversation_id = asyncio.run(_browser_turn(base, key, port, prompt))
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGINT)
            try:
                proc.wait(90)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
    return conversation_id


def stored(tmp: Path, conversation_id: str) -> tuple[dict[str, Any], list[dict[str, Any]], str]:
    """(state, retained frames in order, frontend) straight from conversations.sqlite."""
    conn = sqlite3.connect(tmp / "data" / "conversations.sqlite")
    try:
        state, frontend = conn.execute("SELECT state, frontend FROM conversations WHERE id = ?",
                                       (conversation_id,)).fetchone()
        frames = [json.loads(r[0]) for r in conn.execute(
            "SELECT frame FROM messages WHERE conversation = ? ORDER BY sequence", (conversation_id,))]
    finally:
        conn.close()
    return json.loads(state), frames, frontend


def user_texts(frames: list[dict[str, Any]]) -> list[str]:
    return [f["params"]["text"] for f in frames if f.get("method") == "clauz3/user"]


def stop_reasons(frames: list[dict[str, Any]]) -> list[str]:
    return [f["params"]["stop_reason"] for f in frames if f.get("method") == "clauz3/turn_end"]
