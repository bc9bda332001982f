"""``clauz3 start claude``: Claude Code's own terminal UI next to the in-process service (04 CLD-7, 05 TRM-11).

The CLI runs in the foreground of this terminal with the conversation UUID as its session id
(``--resume <uuid>`` on resume) and reaches clauz3 only through the bridge entry: the lifetime
socket and a fresh bootstrap ticket, never an approval URL, token or key (05 TRM-2). Its
transcript belongs to Claude Code; clauz3 keeps run records and one retained marker so the
conversation is listed and resumable.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import signal
import subprocess

from clauz3.layers.skills import session_instructions
from clauz3.sessions.agent.bridge_check import FAILED
from clauz3.sessions.agent.providers.claude import terminal_argv
from clauz3.sessions.agent.providers.launch import adapter_env
from clauz3.sessions.agent.providers.table import CLAUDE_CLI_MIN
from clauz3.sessions.conversation.agent_status import AgentStatus
from clauz3.sessions.conversation.conversation import ConversationRuntime
from clauz3.sessions.conversation.host import Host
from clauz3.sessions.launch.errors import LaunchError

INSTALL = "npm install -g @anthropic-ai/claude-code"
VERSION_RE = re.compile(r"(\d+)\.(\d+)\.(\d+)")
MARKER_TEXT = ("This conversation runs in Claude Code's own terminal UI; Claude Code keeps its messages. Continue it "
               "with clauz3 resume {id}.")


def _version(text: str) -> tuple[int, int, int] | None:
    match = VERSION_RE.search(text)
    return (int(match.group(1)), int(match.group(2)), int(match.group(3))) if match else None


def claude_cli() -> str:
    """CLD-7: ``claude`` on PATH at version ≥ the pinned minimum, else exit 4 naming both versions."""
    found = shutil.which("claude")
    if found is None:
        raise LaunchError("program_missing", f"Claude Code's terminal UI needs the claude command (not on PATH). "
                          f"Install it with: {INSTALL}")
    try:
        out = subprocess.run([found, "--version"], capture_output=True, text=True, timeout=20,
                             stdin=subprocess.DEVNULL)
        text = out.stdout + out.stderr
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise LaunchError("program_missing",
                          f"claude --version failed ({type(exc).__name__}). Install it with: {INSTALL}") from None
    have = _version(text)
    need = _version(CLAUDE_CLI_MIN)
    if have is None or need is None or have < need:
        shown = ".".join(map(str, have)) if have else "an unknown version"
        raise LaunchError("program_missing", f"Claude Code's terminal UI needs claude {CLAUDE_CLI_MIN} or newer; "
                          f"found {shown}. Install it with: {INSTALL}")
    return os.path.abspath(found)


def exit_status(code: int) -> int:
    """CLI-9: the agent's status; killed by signal N → 128+N."""
    return 128 - code if code < 0 else code


async def run_native(host: Host, conv: ConversationRuntime, *, claude: str, resume: bool, prompt: str | None) -> int:
    """Run the CLI in the foreground until it exits; its status is the command's (CLI-9)."""
    links = conv.links
    if not await links.bridge_ok():
        raise LaunchError("agent_not_started", f"Claude can't start: {FAILED}")
    entry, ticket = await conv.mint_bridge_entry()
    unrestricted = conv.saved.mode == "unrestricted"
    instructions = session_instructions(unrestricted=unrestricted, skills=host.skills)
    argv = terminal_argv(claude, session_id=conv.id, entry=entry, instructions=instructions,
                         restricted=not unrestricted, resume=resume, prompt=prompt)
    env = adapter_env(os.environ, links.data_dir, provider="claude")
    if conv.turn == 0:
        conv.retain({"method": "clauz3/notice", "params": {"level": "info", "code": "native_terminal",
                                                           "text": MARKER_TEXT.format(id=conv.id)}}, turn=1)
        conv.turn = 1
    conv.saved.native_terminal = True
    conv.save_state()
    loop = asyncio.get_running_loop()
    # Ctrl-C belongs to Claude Code while it runs (the terminal signals the whole foreground group).
    loop.add_signal_handler(signal.SIGINT, lambda: None)
    # The page must not start a second (ACP) Claude on this session while the terminal UI owns it.
    conv.status = AgentStatus.UNAVAILABLE
    conv.error = "Claude is running in its own terminal UI for this conversation."
    conv.changed()
    try:
        proc = await asyncio.create_subprocess_exec(*argv, cwd=links.project, env=env)
        loop.add_signal_handler(signal.SIGTERM, proc.terminate)
        code = await proc.wait()
    finally:
        links.lifetime.end_ticket(ticket)
    return exit_status(code)
