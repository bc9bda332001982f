"""``python -P -m clauz3.sessions.agent.providers.pi_adapter``: Pi as an ACP agent through its Node SDK
(04 §10, restricted only).

Each session runs ``node pi_session.mjs <config.json>`` (PI-1) with an allowlisted environment
(PI-2), after refusing command-running credentials (PI-3). The script must attest the six tools
before any prompt (PI-6); its JSON-line events become ACP updates (PI-7).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import shutil
import sys
from pathlib import Path
from typing import Any

import acp
from acp.schema import ToolCallStatus

from clauz3.sessions.agent.providers.availability import node_version
from clauz3.sessions.agent.providers.native import (
    Emit,
    NativeAgent,
    NativeConfig,
    NativeError,
    clauz3_tool,
    data_dir,
    end_child,
    private_dir,
    safe_text,
    serve,
    tool_start,
    tool_update,
)
from clauz3.sessions.agent.providers.pi_setup import (
    SCRIPT,
    check_auth,
    child_env,
    prepare_agent_dir,
    user_agent_dir,
    write_config,
)
from clauz3.sessions.agent.providers.registry import check
from clauz3.sessions.agent.providers.table import PI_NODE_MIN, PI_PIN, SIX_TOOLS

READY_TIMEOUT = 45.0
STREAM_LIMIT = 16 * 1024 * 1024
TOOL_NAMES = sorted(f"mcp__clauz3__{t}" for t in SIX_TOOLS)
NOT_READY = "Pi did not start its restricted session."
EXITED = "Pi stopped before finishing the turn."
SLASH = "Pi prompt templates and commands are off in clauz3; rephrase without a leading /."


class PiRuntime:
    """One Pi SDK session in a child ``node`` process. ``native_id`` is its session file."""

    def __init__(self, config: NativeConfig, native_id: str | None) -> None:
        self.config = config
        self.native_id = native_id
        self._proc: asyncio.subprocess.Process | None = None

    async def _start(self) -> asyncio.subprocess.Process:
        if self._proc is not None and self._proc.returncode is None:
            return self._proc
        if not self.config.restricted:
            raise NativeError("Pi runs only restricted in clauz3.")
        env = dict(os.environ)
        user_dir = user_agent_dir(env)
        auth_file = user_dir / "auth.json"
        try:
            check_auth(auth_file)
        except ValueError as exc:
            raise NativeError(str(exc)) from None
        node = shutil.which("node")
        text, parsed = node_version()
        if node is None or parsed is None or parsed < PI_NODE_MIN:
            raise NativeError(f"Pi needs Node.js 22.19 or newer (found {text or 'none'}).")
        found = check("pi")
        if not found.available or found.package_dir is None:
            raise NativeError(f"Pi {PI_PIN} is not installed: {found.reason}.")
        private = private_dir()
        agent_dir = prepare_agent_dir(user_dir, private)
        config_file = write_config(
            private, sdk_entry=Path(found.package_dir) / "dist" / "index.js", auth_file=auth_file,
            agent_dir=agent_dir, data=data_dir(), resume_file=self.native_id, config=self.config,
        )
        proc = await asyncio.create_subprocess_exec(
            os.path.abspath(node), str(SCRIPT), str(config_file), cwd=str(private),
            env=child_env(env, agent_dir), stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL, limit=STREAM_LIMIT,
        )
        self._proc = proc
        try:
            ready = await asyncio.wait_for(self._read(proc), READY_TIMEOUT)
        except (TimeoutError, NativeError):
            await self.abort()
            raise NativeError(NOT_READY) from None
        if not _attested(ready):
            await self.abort()
            raise NativeError(NOT_READY)
        session_file = ready.get("session_file")
        if isinstance(session_file, str) and session_file:
            self.native_id = session_file
        return proc

    async def _read(self, proc: asyncio.subprocess.Process) -> dict[str, Any]:
        assert proc.stdout is not None
        while True:
            try:
                line = await proc.stdout.readline()
            except (ValueError, asyncio.LimitOverrunError):
                raise NativeError(EXITED) from None
            if not line:
                raise NativeError(EXITED)
            with contextlib.suppress(ValueError):
                event = json.loads(line)
                if isinstance(event, dict):
                    return event

    async def _send(self, proc: asyncio.subprocess.Process, message: dict[str, Any]) -> None:
        assert proc.stdin is not None
        try:
            proc.stdin.write((json.dumps(message) + "\n").encode())
            await proc.stdin.drain()
        except (ConnectionError, OSError):
            raise NativeError(EXITED) from None

    async def run_turn(self, text: str, emit: Emit, turn: int) -> str:
        if text.lstrip().startswith("/"):
            raise NativeError(SLASH)
        proc = await self._start()
        await self._send(proc, {"type": "prompt", "text": text})
        names: dict[str, str | None] = {}
        while True:
            event = await self._read(proc)
            kind = event.get("type")
            if kind == "text_delta" and isinstance(event.get("text"), str) and event["text"]:
                await emit(acp.update_agent_message_text(event["text"]))
            elif kind == "tool_start" and isinstance(event.get("id"), str):
                tool = clauz3_tool(event.get("name"))
                names[event["id"]] = tool
                raw_name = event.get("name")
                title = raw_name if isinstance(raw_name, str) else "tool"
                await emit(tool_start(event["id"], title, "in_progress", tool, event.get("args")))
            elif kind == "tool_end" and isinstance(event.get("id"), str):
                status: ToolCallStatus = "failed" if event.get("is_error") else "completed"
                await emit(tool_update(event["id"], status, names.get(event["id"]), event.get("result")))
            elif kind == "turn_end":
                if event.get("error"):
                    raise NativeError(f"Pi could not finish the turn: {safe_text(event['error'])}")
                return "end_turn"
            elif kind == "fatal":
                await self.abort()
                raise NativeError(f"Pi stopped: {safe_text(event.get('message', 'unknown error'))}")

    async def abort(self) -> None:
        proc = self._proc
        if proc is not None and proc.returncode is None and proc.stdin is not None:
            with contextlib.suppress(NativeError):
                await self._send(proc, {"type": "abort"})
        # An abort leaves the SDK session usable, but a cancelled turn's trailing events would be
        # read by the next prompt; a fresh child resumes the session file instead.
        self._proc = None
        await end_child(proc)

    async def close(self) -> None:
        await self.abort()


def _attested(ready: dict[str, Any]) -> bool:
    tools = ready.get("tools")
    return (
        ready.get("type") == "ready" and ready.get("sdk_version") == PI_PIN
        and isinstance(tools, list) and sorted(t for t in tools if isinstance(t, str)) == TOOL_NAMES
        and len(tools) == len(TOOL_NAMES)
    )


def main() -> int:
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="pi-adapter: %(levelname)s %(message)s")
    agent = NativeAgent("pi", "Pi", lambda config, native_id: PiRuntime(config, native_id))
    with contextlib.suppress(KeyboardInterrupt):
        return asyncio.run(serve(agent))
    return 130


if __name__ == "__main__":
    sys.exit(main())
