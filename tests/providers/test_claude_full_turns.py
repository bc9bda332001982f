"""Full turns of the real pinned claude-agent-acp inside the real ``clauz3 ui claude`` workspace,
against a scripted fake Anthropic Messages API on 127.0.0.1 (04 TST-6/TST-7, §3.5, §3.6).

Everything but the model is real: the launcher, service, ACP client, adapter, its bundled
``claude`` CLI, the MCP bridge, prover, approval authority and run worker, and Debian's Chromium
clicking the approval. The CLI finds the fake through ``ANTHROPIC_BASE_URL`` (which must pass the
service's adapter environment untouched) with a dummy key. ``CLAUDE_CODE_EXECUTABLE`` is a
wrapper recording each CLI start's argv, so a resume can be seen as ``--resume <session id>``.

The first test is the fast default-tier smoke test; the others are ``soak`` (00 DEC-2).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from conftest import PREFIX, RefusingProxy, need_npm
from fake_anthropic import HELLO, RUN_TOOL, FakeAnthropic, Request, Text, ToolUse, result_text, tst6_script

from clauz3.agents.demo.programs import Modules, build
from clauz3.agents.demo.script import Email
from clauz3.layers.skills import BASE_INSTRUCTIONS
from clauz3.sessions.agent.providers import claude
from clauz3.sessions.agent.providers.table import CLAUDE_ACP_PACKAGE, CLAUDE_ACP_PIN

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "browser"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for proc_tree
from browser_harness import ARGS, CHROMIUM, launch_ui, needs_chromium, stop_ui
from proc_tree import cmdline, descendants

SIX = set(claude.ALLOWED_TOOLS)
# Reviewed: MCP-resource helpers that only list/read resources of the configured MCP servers (the
# bridge offers none). Nothing that reads files, writes, executes, fetches or spawns agents.
HARMLESS = {"ListMcpResourcesTool", "ReadMcpResourceTool"}
PROGRAMS = {
    "ok": build(Email("bob@example.com", "hi", ("bob@example.com",)), Modules.default("email")).source,
    # The guarantee says only bob, the program mails eve: the prover must refuse it.
    "refuted": build(Email("eve@example.com", "hi", ("bob@example.com",)), Modules.default("email")).source,
}

pytestmark = needs_chromium


# -- the pieces ------------------------------------------------------------------------------------

def real_claude_cli() -> Path:
    found = sorted((PREFIX / "node_modules" / "@anthropic-ai").glob("claude-agent-sdk-*/claude"))
    if not found:
        pytest.fail(f"{CLAUDE_ACP_PACKAGE}@{CLAUDE_ACP_PIN} has no bundled claude CLI in {PREFIX}")
    return found[0]


@dataclass
class Box:
    """One test's private world: short paths (Unix socket limits), own HOME, data dir, fake API."""

    root: Path
    api: FakeAnthropic
    env: dict[str, str]
    argv_dir: Path
    marker: Path
    proxy: RefusingProxy  # HTTPS_PROXY/HTTP_PROXY of the whole tree: records and refuses (TST-3)

    def cli_starts(self) -> list[list[str]]:
        """The argv of every ``claude`` CLI session start so far, oldest first (the adapter's other
        CLI calls, such as ``auth status --json``, are left out)."""
        files = sorted(self.argv_dir.glob("argv-*"), key=lambda p: p.stat().st_mtime_ns)
        argvs = [[a.decode() for a in f.read_bytes().split(b"\0")[:-1]] for f in files]
        return [a for a in argvs if flag(a, "--session-id") or flag(a, "--resume")]


def flag(argv: list[str], name: str) -> str | None:
    """The value of ``name`` in a CLI argv, as ``--name=value`` or ``--name value``; None if absent."""
    for i, arg in enumerate(argv):
        if arg.startswith(name + "="):
            return arg[len(name) + 1:]
        if arg == name and i + 1 < len(argv):
            return argv[i + 1]
    return None


@pytest.fixture
def box(isolated_env: dict[str, str], proxy: RefusingProxy) -> Iterator[Box]:
    need_npm(CLAUDE_ACP_PACKAGE, CLAUDE_ACP_PIN)
    root = Path(tempfile.mkdtemp(prefix="clft-", dir="/tmp")).resolve()
    argv_dir = root / "argv"
    argv_dir.mkdir()
    wrapper = root / "claude-wrapper"
    wrapper.write_text(
        "#!/bin/sh\n"
        # Double quotes: $$ (this start's pid) must expand; the paths hold no shell specials.
        f"printf '%s\\0' \"$@\" > \"{argv_dir}/.argv-$$\" && mv \"{argv_dir}/.argv-$$\" \"{argv_dir}/argv-$$\"\n"
        f"exec '{real_claude_cli()}' \"$@\"\n"
    )
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IXUSR)
    marker = root / "outside" / "forbidden-marker"
    marker.parent.mkdir()
    api = FakeAnthropic(tst6_script(PROGRAMS, forbidden_marker=str(marker)))
    env = dict(isolated_env) | {
        "TMPDIR": str(root),
        "CLAUZ3_HOME": str(root / "data"),
        "ANTHROPIC_BASE_URL": api.url,
        "ANTHROPIC_API_KEY": "sk-ant-fake",
        "CLAUDE_CODE_EXECUTABLE": str(wrapper),
    }
    with api:
        yield Box(root, api, env, argv_dir, marker, proxy)
    shutil.rmtree(root, ignore_errors=True)


@dataclass
class Workspace:
    """A running ``clauz3 ui claude --tutorial`` and a signed-in Chromium page on it."""

    proc: subprocess.Popen[str]
    page: Any = None
    frames: list[dict[str, Any]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def adapter_pids(self) -> list[int]:
        """The claude-agent-acp processes (not their supervisors) under this service."""
        return [p for p in descendants(self.proc.pid)
                if any("claude-agent-acp" in a for a in cmdline(p))
                and not any("clauz3.sessions.agent.supervisor" in a for a in cmdline(p))]

    def updates(self, kind: str | None = None) -> list[dict[str, Any]]:
        """The agent updates the page received live (its own ``clauz3/agent`` JSON), in order."""
        out = []
        for frame in self.frames:
            if frame.get("method") != "clauz3/agent":
                continue
            item = frame.get("params") or {}
            if kind is None or item.get("kind") == kind or item.get("type") == kind:
                out.append(item)
        return out

    def timeline(self) -> list[str]:
        """A short account of the frames the page got, for failure reports."""
        out = []
        for frame in self.frames:
            method, params = frame.get("method"), frame.get("params") or {}
            if method == "clauz3/state":
                out.append(f"state:{params.get('agent_status')}")
            elif method == "clauz3/agent":
                out.append(f"update:{params.get('type') or params.get('kind')}")
            else:
                detail = params.get("code") or params.get("stop_reason") or params.get("text", "")[:40]
                out.append(f"{method}:{detail}")
        return out

    def turn_ends(self) -> list[dict[str, Any]]:
        return [f.get("params") or {} for f in self.frames if f.get("method") == "clauz3/turn_end"]

    def agent_status(self) -> str | None:
        """The agent status of the newest state the page received (restore or state frame)."""
        for frame in reversed(self.frames):
            params = frame.get("params") or {}
            if frame.get("method") == "clauz3/state":
                return params.get("agent_status")
            if frame.get("method") == "clauz3/restore":
                return (params.get("state") or {}).get("agent_status")
        return None

    async def send(self, text: str) -> None:
        """Type and send ``text`` once the agent is ready.

        Waiting for ``ready`` (not just an enabled Send) matters: the first state a page gets says
        ``stopped`` (the agent starts when the page connects) and Send is enabled for that instant;
        a click landing as ``starting`` disables it again is silently lost.
        """
        from playwright.async_api import expect

        deadline = time.monotonic() + 90
        while self.agent_status() != "ready":
            assert time.monotonic() < deadline, f"the agent never became ready: {self.timeline()}"
            await asyncio.sleep(0.1)
        box = self.page.get_by_role("textbox", name="Message Claude")
        await box.fill(text)
        send = self.page.get_by_role("button", name="Send", exact=True)
        await expect(send).to_be_enabled(timeout=90_000)
        await send.click()

    async def turn_ended(self, count: int) -> dict[str, Any]:
        """Wait for the ``count``-th ``clauz3/turn_end`` the page saw; return it."""
        deadline = time.monotonic() + 120
        while len(self.turn_ends()) < count:
            assert time.monotonic() < deadline, f"turn {count} did not end; frames: {self.frames[-5:]}"
            await asyncio.sleep(0.1)
        return self.turn_ends()[count - 1]

    async def idle(self) -> None:
        from playwright.async_api import expect

        await expect(self.page.get_by_role("status", name="Activity")).to_be_hidden(timeout=30_000)
        await expect(self.page.locator("#status-text")).to_have_text("Ready", timeout=30_000)


@contextlib.asynccontextmanager
async def workspace(b: Box) -> AsyncIterator[Workspace]:
    """Start the real ui command, sign Chromium in, record every WebSocket frame the page gets."""
    from playwright.async_api import async_playwright

    proc, link = launch_ui("claude", "--tutorial", env=b.env)
    ws = Workspace(proc)
    port = link.split(":")[2].split("/")[0]
    outside: list[str] = []
    try:
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            try:
                page = await browser.new_page()
                ws.page = page
                page.on("pageerror", lambda exc: ws.errors.append(str(exc)))
                page.on("request", lambda req: outside.append(req.url) if not req.url.startswith(
                    (f"http://127.0.0.1:{port}/", f"ws://127.0.0.1:{port}/")) else None)

                def on_socket(sock: Any) -> None:
                    def received(payload: str | bytes) -> None:
                        with contextlib.suppress(ValueError):
                            frame = json.loads(payload)
                            if isinstance(frame, dict):
                                ws.frames.append(frame)

                    sock.on("framereceived", received)

                page.on("websocket", on_socket)
                await page.goto(link)
                await page.wait_for_url(link.split("/ui/login")[0] + "/ui", timeout=60_000)  # issue 19: the page moves on
                yield ws
                assert ws.errors == [], ws.errors
                assert outside == [], outside
            except BaseException:
                with contextlib.suppress(Exception):
                    shot = Path(tempfile.mkdtemp(prefix="clauz3-claude-failure-")) / "failure.png"
                    await ws.page.screenshot(path=str(shot), full_page=True)
                    print(f"\nscreenshot of the failing page: {shot}", file=sys.stderr)
                    print(f"fake API requests: {[(r.path, r.last_user_text()[:80]) for r in b.api.requests]}",
                          file=sys.stderr)
                    print(f"page frames: {ws.timeline()}", file=sys.stderr)
                raise
            finally:
                await browser.close()
    finally:
        adapters = ws.adapter_pids()
        stop_ui(proc)
    assert proc.returncode in (0, 130), proc.returncode
    # The service ended its adapters with it (SUP-6): none outlives the workspace.
    deadline = time.monotonic() + 60
    while [p for p in adapters if cmdline(p) not in ([], [""])] and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    assert [p for p in adapters if cmdline(p) not in ([], [""])] == []


def main_requests(api: FakeAnthropic, text: str) -> list[Request]:
    """Model requests of the conversation itself (the run tool offered) whose last user turn says ``text``."""
    return [r for r in api.messages() if RUN_TOOL in r.tool_names() and text in r.last_user_text()]


async def main_request(api: FakeAnthropic, text: str) -> Request:
    """The first conversation request whose last user turn says ``text`` (waits for it)."""
    return await asyncio.to_thread(
        api.wait_for, lambda r: RUN_TOOL in r.tool_names() and text in r.last_user_text(), 90.0)


def tool_use_of(request: Request) -> ToolUse:
    assert request.reply is not None
    uses = [b for b in request.reply.blocks if isinstance(b, ToolUse)]
    assert len(uses) == 1
    return uses[0]


async def result_for(api: FakeAnthropic, use: ToolUse) -> dict[str, Any]:
    """The ``tool_result`` block the CLI sent back to the model for ``use`` (waits for it)."""
    request = await asyncio.to_thread(
        api.wait_for, lambda r: any(t.get("tool_use_id") == use.id for t in r.tool_results()), 90.0)
    return next(t for t in request.tool_results() if t.get("tool_use_id") == use.id)


# -- default tier: one fast smoke turn -------------------------------------------------------------

async def test_say_hi_streams_the_fake_model_text_to_the_page(box: Box) -> None:
    from playwright.async_api import expect

    async with workspace(box) as ws:
        await ws.send("say hi")
        end = await ws.turn_ended(1)
        assert end.get("stop_reason") == "end_turn", end
        await expect(ws.page.locator(".bubble.assistant").last).to_contain_text(HELLO)
        chunks = [u["text"] for u in ws.updates("text")]
        assert len(chunks) >= 2, chunks  # streamed, not one final blob
        assert HELLO in "".join(chunks)
        assert len(ws.adapter_pids()) == 1

    # What the CLI offered the model: our instructions, and only clauz3 tools.
    [request] = main_requests(box.api, "say hi")
    assert request.stream
    assert BASE_INSTRUCTIONS.splitlines()[0] in request.system_text()
    offered = set(request.tool_names())
    assert SIX <= offered, offered
    assert offered <= SIX | HARMLESS, offered - SIX
    # Every request the CLI made was a model call (or a token count) on the fake: no stray
    # endpoint, and nothing tried the network through the refusing proxy.
    stray = [(r.method, r.path) for r in box.api.others() if r.path.split("?")[0] != "/v1/messages/count_tokens"]
    assert stray == []
    assert box.proxy.requests == []
    assert all(not [t for t in r.tool_names() if t not in SIX | HARMLESS] for r in box.api.messages())
    # The restricted CLI, started through the real host (DEC-12 subset of TST-5).
    [argv] = box.cli_starts()
    assert claude.restriction_flags_ok(argv) == [], argv


# -- soak: runs, refusals, stop, resume ------------------------------------------------------------

@pytest.mark.soak
async def test_run_tool_call_is_proved_approved_in_chromium_and_its_result_reaches_the_model(box: Box) -> None:
    from playwright.async_api import expect

    async with workspace(box) as ws:
        page = ws.page
        # 1. RUN:ok → tool call through the bridge, proof, approval clicked here, execution.
        await ws.send("RUN:ok please send it")
        card = page.locator("section.approval").last
        await expect(card).to_contain_text("Verified limits", timeout=90_000)
        await expect(card).to_contain_text('email.only(addresses=["bob@example.com"])')
        calls = {u["id"] for u in ws.updates("tool") if u.get("tool") == "run"}
        assert len(calls) == 1, ws.updates("tool")
        await card.get_by_role("button", name="Approve", exact=True).click()
        await expect(page.locator("section.run").last).to_contain_text("Completed", timeout=60_000)
        end = await ws.turn_ended(1)
        assert end.get("stop_reason") == "end_turn", end
        # The tool result flowed back to the model, and its answer reached the page.
        use = tool_use_of(await main_request(box.api, "RUN:ok please send it"))
        assert use.input == {"source": PROGRAMS["ok"]}
        result = await result_for(box.api, use)
        assert not result.get("is_error"), result
        record = json.loads(result_text(result))
        assert (record["phase"], record["exit_code"], record["approval"]["decision"]) == ("completed", 0, "approved_once")
        await expect(page.locator(".bubble.assistant").last).to_contain_text("The tool said:")
        await expect(page.locator(".bubble.assistant").last).to_contain_text("completed")
        await ws.idle()

        # 2. RUN:ok again, rejected here → refused, nothing ran.
        await ws.send("RUN:ok once more")
        card = page.locator("section.approval").last
        await expect(card.get_by_role("button", name="Reject", exact=True)).to_be_enabled(timeout=90_000)
        await card.get_by_role("button", name="Reject", exact=True).click()
        await expect(page.locator("section.run").last).to_contain_text("Did not execute", timeout=60_000)
        result = await result_for(box.api, tool_use_of(await main_request(box.api, "RUN:ok once more")))
        record = json.loads(result_text(result))
        assert (record["phase"], record["exit_code"], record["approval"]["decision"]) == ("refused", 3, "rejected")
        await ws.turn_ended(2)
        await ws.idle()

        # 3. RUN:refuted → the prover refuses; no approval is ever asked for.
        await ws.send("RUN:refuted mail eve")
        result = await result_for(box.api, tool_use_of(await main_request(box.api, "RUN:refuted mail eve")))
        record = json.loads(result_text(result))
        assert (record["phase"], record["reason"], record["approval"]) == ("refused", "proof_failed", None)
        await ws.turn_ended(3)
        await expect(page.locator("section.run").last).to_contain_text("Did not execute")
        await ws.idle()
        assert await page.get_by_role("button", name="Approve", exact=True).count() == 0

        # 4. FORBIDDEN → a native Bash call the restricted CLI does not have: nothing runs.
        await ws.send("FORBIDDEN touch the marker")
        use = tool_use_of(await main_request(box.api, "FORBIDDEN touch the marker"))
        result = await result_for(box.api, use)
        assert result.get("is_error") is True, result
        assert "No such tool available: Bash" in result_text(result), result
        end = await ws.turn_ended(4)
        assert end.get("stop_reason") == "end_turn", end
        await ws.idle()
        assert not box.marker.exists()
        assert await page.locator("section.run").count() == 3
        # --allowedTools let the clauz3 runs through without an ACP permission prompt, and no
        # other tool existed to ask for: the host never had to refuse one (PRM-4 notices).
        notices = [(f.get("params") or {}).get("code") for f in ws.frames if f.get("method") == "clauz3/notice"]
        assert "permission_refused" not in notices, notices

    # Across the whole conversation: no request offered anything but clauz3 tools.
    for request in box.api.messages():
        assert set(request.tool_names()) <= SIX | HARMLESS, request.tool_names()


@pytest.mark.soak
async def test_stop_cancels_a_slow_turn_and_the_same_adapter_answers_next(box: Box) -> None:
    from playwright.async_api import expect

    async with workspace(box) as ws:
        page = ws.page
        await ws.send("go slow please")
        await expect(page.locator(".bubble.assistant").last).to_contain_text("chunk2", timeout=90_000)
        [adapter] = ws.adapter_pids()
        stop = page.get_by_role("button", name="Stop", exact=True)
        await stop.click()
        end = await ws.turn_ended(1)
        assert end.get("stop_reason") == "cancelled", end
        # The adapter honoured session/cancel: no forced kill at the 3 s escalation (ACP-19).
        assert end.get("forced") is not True, end
        await expect(page.locator(".turn-note")).to_have_text("Stopped")
        # The CLI dropped the model stream long before its 60 deltas.
        [slow] = main_requests(box.api, "go slow please")
        await asyncio.to_thread(box.api.wait_for, lambda r: r is slow and r.cut_short, 10.0)
        assert slow.events_sent < 60
        await ws.idle()

        await ws.send("say hi")
        end = await ws.turn_ended(2)
        assert end.get("stop_reason") == "end_turn", end
        await expect(page.locator(".bubble.assistant").last).to_contain_text(HELLO)
        assert ws.adapter_pids() == [adapter]
        await ws.idle()

        # Stop while a run awaits approval: the run is cancelled, a late decision is refused.
        await ws.send("RUN:ok then stop")
        card = page.locator("section.approval").last
        await expect(card.get_by_role("button", name="Approve", exact=True)).to_be_enabled(timeout=90_000)
        request_id = await card.get_attribute("data-request-id")
        assert request_id and re.fullmatch(r"clr_[0-9a-f]+", request_id), request_id
        await stop.click()
        end = await ws.turn_ended(3)
        assert end.get("stop_reason") == "cancelled" and end.get("forced") is not True, end
        await expect(page.locator("section.run").last.locator(".phase")).to_have_text("Stopped", timeout=30_000)
        await expect(card).to_contain_text("Cancelled before a decision.")
        await expect(card.get_by_role("button", name="Approve", exact=True)).to_have_count(0)
        status = await page.evaluate(
            """async (id) => (await fetch(`/api/requests/${id}/decision`, {method: "POST",
                 credentials: "same-origin", headers: {"Content-Type": "application/json",
                 "X-Clauz3-Page": sessionStorage.getItem("clauz3-page")},
                 body: JSON.stringify({decision: "approved_once"})})).status""", request_id)
        assert status == 409, status
        await ws.idle()
        assert ws.adapter_pids() == [adapter]
    assert len(box.cli_starts()) == 1


@pytest.mark.soak
async def test_session_load_resumes_the_conversation_after_a_service_restart(box: Box) -> None:
    from playwright.async_api import expect

    async with workspace(box) as ws:
        await ws.send("remember the word pineapple")
        assert (await ws.turn_ended(1)).get("stop_reason") == "end_turn"
        await ws.idle()
    [first] = box.cli_starts()
    session_id = flag(first, "--session-id")
    assert session_id

    async with workspace(box) as ws:
        page = ws.page
        # The saved transcript is shown; the agent comes back through session/load.
        await expect(page.locator(".bubble.user .user-text")).to_have_text(["remember the word pineapple"],
                                                                          timeout=30_000)
        await ws.send("say hi again")
        end = await ws.turn_ended(1)
        assert end.get("stop_reason") == "end_turn", end
        await expect(page.locator(".bubble.assistant").last).to_contain_text(HELLO)
        # Nothing the adapter replayed on load was forwarded or kept (RSM-3).
        assert ws.updates("user_message_chunk") == []
        await ws.idle()
        await page.reload()
        await expect(page.locator(".bubble.user .user-text")).to_have_text(
            ["remember the word pineapple", "say hi again"], timeout=30_000)
        await expect(page.locator(".bubble.assistant", has_text=HELLO)).to_have_count(2)

    starts = box.cli_starts()
    assert len(starts) == 2, starts
    resumed = starts[1]
    # A new CLI process resumed the same Claude session, restricted and with the bridge again (RSM-2).
    assert flag(resumed, "--resume") == session_id, resumed
    assert claude.restriction_flags_ok(resumed) == [], resumed
    config = json.loads(flag(resumed, "--mcp-config") or "{}")
    assert list(config["mcpServers"]) == ["clauz3"]
    # The model saw the earlier turn: the conversation itself was resumed, not just its id.
    [request] = main_requests(box.api, "say hi again")
    assert "remember the word pineapple" in request.all_text()
    assert any(isinstance(b, Text) for b in request.reply.blocks)  # type: ignore[union-attr]
