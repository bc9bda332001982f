"""06 QB-20 (and 03 "after a full approved run … finds no token, key, login URL or receipt"): a full tutorial
flow through the real stack — the workspace service built in this process (so its memory-only secrets are
known to the test), the real demo agent, the real MCP bridge, a real run worker and the in-process authority —
driven in Debian's Chromium. Then every place a secret could leak to is searched: the page HTML, every
WebSocket frame both ways, the JSON and Markdown exports, the handoff file, every file under the data and
temp dirs (conversations.sqlite, runs ledger, snapshots, profiles, logs), this process's logs and output,
and /proc/<pid>/environ of the agent supervisor, the demo agent and the bridge. 0 hits.

Each search is proved able to find: a canary prompt must be found in frames, HTML, store, exports and the
handoff; a canary environment variable in every environ; the bridge's own bootstrap ticket in its environ.
"""

from __future__ import annotations

import base64
import json
import logging
import os
from pathlib import Path
from typing import Any

import pytest
from proc_tree import cmdline, descendants
from sessions_harness import running_service

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
CANARY = "qb20-canary-3b7f2e91c4"
ENV_CANARY = "qb20-env-canary-8d15a0"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="chromium is not installed at /usr/bin/chromium"),
]


def patterns(secret: str | bytes) -> list[bytes]:
    """The byte spellings a secret could leak as."""
    raw = secret.encode() if isinstance(secret, str) else secret
    out = {raw}
    if isinstance(secret, bytes):
        out |= {raw.hex().encode(), base64.b64encode(raw), base64.urlsafe_b64encode(raw).rstrip(b"="),
                base64.b64encode(raw).rstrip(b"=")}
    return [p for p in out if len(p) >= 16]


def hits(blobs: dict[str, bytes], secrets: dict[str, str | bytes]) -> list[str]:
    found = []
    for where, blob in blobs.items():
        for name, secret in secrets.items():
            if any(p in blob for p in patterns(secret)):
                found.append(f"{name} in {where}")
    return found


def tree_files(root: Path, skip: set[str]) -> dict[str, bytes]:
    out: dict[str, bytes] = {}
    for path in sorted(root.rglob("*")):
        if path.is_file() and not path.is_symlink() and path.name not in skip:
            out[str(path)] = path.read_bytes()
    return out


def environs() -> dict[str, bytes]:
    """``environ of <module> (pid N)`` for every descendant Python process started with ``-m <module>``."""
    out: dict[str, bytes] = {}
    for pid in descendants(os.getpid()):
        argv = cmdline(pid)
        try:
            env = Path(f"/proc/{pid}/environ").read_bytes()
        except OSError:
            continue
        if "-m" in argv and argv.index("-m") + 1 < len(argv):
            out[f"environ of {argv[argv.index('-m') + 1]} (pid {pid})"] = env
    return out


async def test_no_secret_leaks_after_a_full_tutorial_flow(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          caplog: pytest.LogCaptureFixture,
                                                          capfd: pytest.CaptureFixture[str]) -> None:
    from playwright.async_api import async_playwright, expect

    caplog.set_level(logging.DEBUG)
    monkeypatch.setenv("QB20_ENV_CANARY", ENV_CANARY)
    frames: list[tuple[str, str]] = []
    async with running_service(tmp_path, tutorial="email", bridge=None, debug=True) as svc, \
            async_playwright() as pw:
        host = svc.host
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = await browser.new_page()

            def on_socket(ws: Any) -> None:
                ws.on("framesent", lambda payload: frames.append(("sent", str(payload))))
                ws.on("framereceived", lambda payload: frames.append(("received", str(payload))))

            page.on("websocket", on_socket)
            login_token = svc.service.sign_in.tokens.new()
            await page.goto(f"{svc.base}/ui/login?key={login_token}")
            await page.wait_for_url(f"{svc.base}/ui", timeout=60_000)
            page_secret = await page.evaluate("sessionStorage.getItem('clauz3-page')")
            assert isinstance(page_secret, str) and page_secret
            starter = page.get_by_role("button", name="Send a mock email")
            await expect(starter).to_be_visible(timeout=60_000)
            await starter.click()
            send = page.get_by_role("button", name="Send", exact=True)
            await expect(send).to_be_enabled(timeout=60_000)
            await send.click()
            card = page.locator("section.approval").last
            await expect(card).to_contain_text("Verified limits", timeout=60_000)
            await page.get_by_role("button", name="Approve", exact=True).click()
            await expect(page.locator("section.run").last).to_contain_text("Completed", timeout=60_000)
            await expect(page.locator("#status-text")).to_have_text("Ready", timeout=60_000)

            box = page.get_by_role("textbox", name="Message Demo")
            await box.fill(f"please repeat {CANARY}")
            await expect(send).to_be_enabled(timeout=60_000)
            await send.click()
            await expect(page.locator(".bubble.user").last).to_contain_text(CANARY, timeout=60_000)
            await expect(page.locator("#status-text")).to_have_text("Ready", timeout=60_000)

            conversation_id = host.conversation.id
            exported: dict[str, bytes] = {}
            for fmt in ("json", "markdown"):
                body = await page.evaluate(
                    "async (u) => (await fetch(u, {headers: {'X-Clauz3-Page': sessionStorage.getItem('clauz3-page')}}))"
                    ".text()",
                    f"/api/chat/transcript?id={conversation_id}&format={fmt}")
                exported[f"transcript export ({fmt})"] = body.encode()
            handoff = await page.evaluate(
                """async (cid) => { const r = await fetch('/api/chat/handoff', {method: 'POST',
                   headers: {'Content-Type': 'application/json', 'X-Clauz3-Page': sessionStorage.getItem('clauz3-page')},
                   body: JSON.stringify({conversation_id: cid})});
                   return [r.status, await r.text()]; }""", conversation_id)
            assert handoff[0] == 200, handoff
            for route in ("/api/chat/conversations", "/api/workspaces", "/api/requests", "/api/service",
                          "/api/profile", "/ui/profile", "/ui/libraries"):
                status_and_body = await page.evaluate(
                    "async (u) => { const r = await fetch(u, {headers: {'X-Clauz3-Page': sessionStorage.getItem("
                    "'clauz3-page')}}); return [r.status, await r.text()]; }", route)
                exported[f"GET {route} ({status_and_body[0]})"] = status_and_body[1].encode()
            html = (await page.content()).encode()
            cookies = await page.context.cookies()

            # The secrets, read while everything is alive: the service holds them in memory only.
            records = host.authority.list()
            assert records and all(r.state == "approved" for r in records), [r.state for r in records]
            receipts = [r.receipt for r in records if r.receipt]
            assert receipts, "the flow produced no receipt"
            envs = environs()
            bridge_envs = {k: v for k, v in envs.items() if k.startswith("environ of clauz3.bridge ")}
            agent_envs = {k: v for k, v in envs.items() if k.startswith(("environ of clauz3.agents.demo ",
                                                                         "environ of clauz3.sessions.agent.supervisor "))}
            other_envs = {k: v for k, v in envs.items() if k not in bridge_envs and k not in agent_envs}
            assert bridge_envs and len(agent_envs) >= 2, list(envs)
            tickets = set(host.lifetime.secret_values())
            for env in bridge_envs.values():
                for item in env.split(b"\0"):
                    if item.startswith(b"CLAUZ3_BRIDGE_TICKET="):
                        tickets.add(item.split(b"=", 1)[1].decode())
            assert tickets
            secrets: dict[str, str | bytes] = {
                "signing key": host.authority._key.text,
                "cookie secret": svc.service.sign_in.cookies._secret,
                "login token": login_token,
                "page secret": page_secret,
                "launch login token": host.config.login_token,
                **{f"session cookie {i}": c["value"] for i, c in enumerate(cookies) if c["name"] == svc.cookie_name},
                **{f"submission token {i}": t for i, t in enumerate(host.authority.submission_tokens())},
                **{f"bootstrap ticket {i}": t for i, t in enumerate(sorted(tickets))},
                **{f"receipt {i}": r for i, r in enumerate(receipts)},
                **{f"receipt signature {i}": r.split(".")[-1] for i, r in enumerate(receipts)},
            }
            assert any(k.startswith("session cookie") for k in secrets)
            for value in host.secret_values():
                assert value in secrets.values()
        finally:
            await browser.close()

    # The page secret's one place in a frame (issue 19): the first frame the page sends on each socket.
    hellos = [payload for way, payload in frames if way == "sent" and '"clauz3/hello"' in payload]
    assert hellos and all(page_secret in h for h in hellos)
    frame_blob = "\n".join(payload for way, payload in frames if payload not in hellos).encode()
    store = tree_files(Path(svc.service.host.data_dir), skip={"ui-session.key"})  # the cookie secret's own file
    temp = tree_files(tmp_path / "run", skip=set())
    project = tree_files(Path(svc.service.host.project), skip=set())
    handoffs = {k: v for k, v in store.items() if "/handoffs/" in k}
    sqlite = {k: v for k, v in store.items() if "conversations.sqlite" in k}
    assert handoffs and sqlite and frames
    out, err = capfd.readouterr()
    blobs: dict[str, bytes] = {
        "page HTML": html, "WebSocket frames": frame_blob, **exported, **store, **temp, **project,
        "logs": "\n".join(r.getMessage() for r in caplog.records).encode(), "stdout": out.encode(),
        "stderr": err.encode(), **agent_envs, **other_envs,
    }
    # The searches can find what they look for.
    assert CANARY.encode() in frame_blob and CANARY.encode() in html
    assert any(CANARY.encode() in b for b in sqlite.values()), "canary not in conversations.sqlite"
    assert all(CANARY.encode() in b for b in handoffs.values())
    assert CANARY.encode() in exported["transcript export (markdown)"]
    # the canary reaches the agent side; the bridge gets the MCP client's minimal environment plus the entry's env
    assert all(ENV_CANARY.encode() in env for env in agent_envs.values()), [
        k for k, env in agent_envs.items() if ENV_CANARY.encode() not in env]
    assert not any(any(t.encode() in env for t in tickets) for env in bridge_envs.values())  # issue 11 §5
    assert hits({"probe": svc.service.sign_in.cookies._secret.hex().encode()}, {"c": secrets["cookie secret"]})

    assert hits(blobs, secrets) == []
    # A bridge's environment holds nothing secret, not even its own bootstrap ticket (issue 11 §5: it names
    # a file the bridge has already read and unlinked).
    assert hits(bridge_envs, secrets) == []
    print("searched:", json.dumps(sorted(blobs), indent=1), "secrets:", sorted(secrets))
