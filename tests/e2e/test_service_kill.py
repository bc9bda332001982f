"""QB-13 / 02 PROC-5: ``kill -9`` of the service at idle leaves no supervisor, adapter or bridge after 2 s,
and a restart on the same data dir reopens the saved conversation (STORE-11)."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import httpx
from page_client import PAGE_HEADER, page_socket, signed_in
from test_ui_launcher import env_for, first_link

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for proc_tree
from proc_tree import children, descendants, wait_gone


def start(tmp: Path, project: Path) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "clauz3", "ui", "demo", "--no-browser"], cwd=project,
                            env=env_for(tmp), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


async def one_turn(url: str) -> tuple[str, str]:
    base = url.split("/ui/login")[0]
    async with httpx.AsyncClient(timeout=90.0, trust_env=False) as client:
        response = await client.get(url)
        name, value, secret = signed_in(response)
    ws = await page_socket(base.replace("http", "ws") + "/api/chat/acp", origin=base, cookie=f"{name}={value}",
                           secret=secret)
    try:
        restore = json.loads(await asyncio.wait_for(ws.recv(), 90))
        cid = restore["params"]["state"]["conversation_id"]
        sent = False
        frame = restore
        while True:
            # The restore frame's state counts: an agent ready before the page connects sends no state frame.
            params = frame["params"]["state"] if frame["method"] == "clauz3/restore" else frame.get("params", {})
            if frame["method"] in ("clauz3/state", "clauz3/restore") and params.get("agent_status") == "ready":
                if not sent:
                    await ws.send(json.dumps({"method": "session/prompt",
                                              "params": {"conversation_id": cid, "prompt": "hello"}}))
                    sent = True
                elif params.get("turn") == 1 and params["activity"]["kind"] == "idle":
                    return cid, restore["params"]["state"]["project"]
            try:
                frame = json.loads(await asyncio.wait_for(ws.recv(), 90))
            except TimeoutError:
                raise AssertionError(f"waited 90 s for {'the turn to end' if sent else 'the agent'}") from None
    finally:
        await ws.close()


async def conversations(url: str) -> list[dict]:
    base = url.split("/ui/login")[0]
    async with httpx.AsyncClient(timeout=90.0, trust_env=False, base_url=base) as client:
        *_, secret = signed_in(await client.get(url))
        return (await client.get("/api/chat/conversations", headers={PAGE_HEADER: secret})).json()["conversations"]


def test_kill_9_at_idle_leaves_no_orphans_and_restart_restores(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    launcher = start(tmp_path, project)
    try:
        url = first_link(launcher)
        cid, _ = asyncio.run(one_turn(url))
        services = children(launcher.pid)
        assert len(services) == 1
        service = services[0]
        below = descendants(service)
        assert below, "the agent supervisor should be running"
        os.kill(service, signal.SIGKILL)
        wait_gone(below, "the service's descendants after its kill -9 (PROC-5)")
        assert launcher.wait(90) != 0  # the exact LAUNCH-8 code is the launcher tests' concern
    finally:
        if launcher.poll() is None:
            launcher.kill()
            launcher.wait()

    again = start(tmp_path, project)
    try:
        url = first_link(again)
        rows = asyncio.run(conversations(url))
        assert [(r["id"], r["turns"]) for r in rows][:1] == [(cid, 1)]
    finally:
        again.send_signal(signal.SIGINT)
        again.wait(90)
