"""05 CLI-12 / 04 PRV-1 end to end: `clauz3 ui` without AGENT and without the pinned Claude adapter
runs the demo agent and shows the fallback notice in the terminal and on the page."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import httpx
import websockets

from clauz3.sessions.agent.providers.table import CLAUDE_FALLBACK

LINK = "Open this private link: "


async def page_frames(base: str, url: str) -> list[dict[str, object]]:
    async with httpx.AsyncClient(timeout=90.0, trust_env=False, follow_redirects=False) as client:
        signed = await client.get(url)
        assert signed.status_code == 200
        cookie = "; ".join(f"{k}={v}" for k, v in signed.cookies.items())
        secret = signed.text.split('name="clauz3-page" content="', 1)[1].split('"', 1)[0]  # issue 19
    ws_url = base.replace("http://", "ws://") + "/api/chat/acp"
    frames: list[dict[str, object]] = []
    async with websockets.connect(ws_url, origin=base, additional_headers={"Cookie": cookie}) as ws:
        await ws.send(json.dumps({"method": "clauz3/hello", "params": {"page": secret}}))
        while True:
            frame = json.loads(await asyncio.wait_for(ws.recv(), 20))
            frames.append(frame)
            if frame.get("method") == "clauz3/notice" and frame["params"].get("code") == "claude_not_installed":
                return frames


def test_ui_without_agent_falls_back_to_demo_with_the_notice(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (tmp_path / "tmpdir").mkdir()
    bin_dir = tmp_path / "bin"  # a PATH with python but without any claude-agent-acp
    bin_dir.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAUZ3_")}
    env.update(CLAUZ3_HOME=str(tmp_path / "data"), TMPDIR=str(tmp_path / "tmpdir"), HOME=str(tmp_path),
               PATH=f"{bin_dir}{os.pathsep}{os.path.dirname(sys.executable)}{os.pathsep}/usr/bin:/bin")
    proc = subprocess.Popen([sys.executable, "-m", "clauz3", "ui", "--no-browser"], cwd=project, env=env,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith(LINK), line
        url = line[len(LINK):].strip()
        base = url.split("/ui/login")[0]
        frames = asyncio.run(page_frames(base, url))
        notice = frames[-1]["params"]
        assert isinstance(notice, dict) and notice["text"] == CLAUDE_FALLBACK
        states = [f["params"] for f in frames if f.get("method") == "clauz3/restore"]
        assert states and states[0]["state"]["agent"] == "demo"
        proc.send_signal(signal.SIGINT)
        assert proc.wait(20) == 130
        assert proc.stderr is not None
        assert f"warning: {CLAUDE_FALLBACK}\n" in proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
