"""``python -P -m clauz3.sessions.agent.providers.agy_adapter``: Antigravity (``agy``) as an ACP agent
(04 §11, unrestricted only).

``agy`` has no per-invocation MCP flag, so the bridge entry goes into
``<private dir>/workspace/.agents/mcp_config.json`` and ``agy`` runs with that workspace as cwd
(AGY-1); the bridge's own arguments still target the real project. One ``agy`` child per
session speaks stream-json; Stop ends it and the next prompt restarts it with
``--conversation <native id>`` (AGY-4).
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

from clauz3.sessions.agent.providers.native import (
    Emit,
    NativeAgent,
    NativeConfig,
    NativeError,
    clauz3_tool,
    end_child,
    private_dir,
    safe_text,
    serve,
    tool_start,
    tool_update,
    write_private,
)

STREAM_LIMIT = 16 * 1024 * 1024
DENIED = (
    "Antigravity blocked the clauz3 tools. Add `mcp(clauz3/run)`, `mcp(clauz3/status)`, `mcp(clauz3/tools)`, "
    "`mcp(clauz3/libraries)`, `mcp(clauz3/list_skills)`, `mcp(clauz3/read_skill)` to `permissions.allow` in "
    "`~/.gemini/antigravity-cli/settings.json`."
)
NOT_FOUND = "Antigravity (agy) is not on PATH."
EXITED = "Antigravity stopped before finishing the turn."


def _event_name(event: dict[str, Any]) -> str | None:
    name = event.get("event", event.get("type"))
    return name if isinstance(name, str) else None


def _body(event: dict[str, Any], key: str) -> dict[str, Any]:
    """Fields of an event, whether top level or nested under the event's own key."""
    inner = event.get(key)
    return {**event, **inner} if isinstance(inner, dict) else event


class AgyRuntime:
    """One agy conversation. ``native_id`` is agy's ``conversation_id``."""

    def __init__(self, config: NativeConfig, native_id: str | None, *, agy: str | None = None) -> None:
        self.config = config
        self.native_id = native_id
        self._agy = agy
        self._proc: asyncio.subprocess.Process | None = None
        self._workspace: Path | None = None
        self._instructed = native_id is not None  # a resumed conversation already has them

    def _prepare(self) -> Path:
        if self._workspace is None:
            workspace = private_dir() / "workspace"
            bridge = self.config.bridge
            server = {"command": bridge["command"], "args": bridge["args"], "env": bridge["env"]}
            write_private(workspace / ".agents" / "mcp_config.json", json.dumps({"mcpServers": {"clauz3": server}}))
            self._workspace = workspace
        return self._workspace

    def argv(self, agy: str) -> list[str]:
        argv = [agy, "--input-format", "stream-json", "--output-format", "stream-json", "--disable-slash-commands"]
        if self.native_id:
            argv += ["--conversation", self.native_id]
        if self.config.model:
            argv += ["--model", self.config.model]
        return argv

    async def _child(self) -> asyncio.subprocess.Process:
        if self._proc is not None and self._proc.returncode is None:
            return self._proc
        agy = self._agy or shutil.which("agy")
        if agy is None:
            raise NativeError(NOT_FOUND)
        workspace = self._prepare()
        # NAT-4: stderr discarded; the child stays in the adapter's process group.
        self._proc = await asyncio.create_subprocess_exec(
            *self.argv(os.path.abspath(agy)), cwd=str(workspace), stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL, limit=STREAM_LIMIT,
        )
        return self._proc

    async def run_turn(self, text: str, emit: Emit, turn: int) -> str:
        proc = await self._child()
        assert proc.stdin is not None and proc.stdout is not None
        if not self._instructed and self.config.instructions:
            text = f"{self.config.instructions}\n\nUser request:\n{text}"
        self._instructed = True
        message = {"event": "user", "message": {"content": text}}
        try:
            proc.stdin.write((json.dumps(message) + "\n").encode())
            await proc.stdin.drain()
        except (ConnectionError, OSError):
            raise NativeError(EXITED) from None
        streamed = False
        tools: dict[str, ToolCallStatus] = {}
        while True:
            try:
                line = await proc.stdout.readline()
            except (ValueError, asyncio.LimitOverrunError):
                raise NativeError(EXITED) from None
            if not line:
                raise NativeError(EXITED)
            try:
                event = json.loads(line)
            except ValueError:
                continue
            if not isinstance(event, dict):
                continue
            name = _event_name(event)
            if name == "init":
                self._save_id(_body(event, "init").get("conversation_id"))
            elif name == "step_update":
                streamed = await self._step(_body(event, "step"), emit, turn, tools) or streamed
            elif name == "result":
                return await self._result(event, emit, streamed)

    async def _step(self, step: dict[str, Any], emit: Emit, turn: int, tools: dict[str, ToolCallStatus]) -> bool:
        kind = step.get("step_type")
        if kind == "agent_response":
            delta = step.get("text_delta")
            if isinstance(delta, str) and delta:
                await emit(acp.update_agent_message_text(delta))
                return True
            return False
        if kind != "tool":
            return False
        call_id = f"{turn}:{step.get('step_index')}"
        name = step.get("tool_name")
        raw_info = step.get("tool_info")
        info = raw_info if isinstance(raw_info, dict) else {}
        status: ToolCallStatus
        if info.get("error"):
            status = "failed"
        elif step.get("state") == "DONE":
            status = "completed"
        else:
            status = "in_progress"
        tool = clauz3_tool(name)
        if call_id not in tools:
            tools[call_id] = status
            await emit(tool_start(call_id, name if isinstance(name, str) else "tool", status, tool))
        elif tools[call_id] != status:
            tools[call_id] = status
            await emit(tool_update(call_id, status, tool))
        return True

    async def _result(self, event: dict[str, Any], emit: Emit, streamed: bool) -> str:
        result = _body(event, "result")
        self._save_id(result.get("conversation_id"))
        denied = result.get("denied_actions")
        if isinstance(denied, list) and denied:
            raise NativeError(DENIED)
        status = result.get("status")
        if status != "SUCCESS":
            shown = safe_text(status, 40) if isinstance(status, str) and status.isupper() else "unknown"
            raise NativeError(f"Antigravity could not finish the turn (status {shown}).")
        response = result.get("response")
        if not streamed and isinstance(response, str) and response:
            await emit(acp.update_agent_message_text(response))
        return "end_turn"

    def _save_id(self, value: Any) -> None:
        if isinstance(value, str) and 0 < len(value) <= 200:
            self.native_id = value

    async def abort(self) -> None:
        proc, self._proc = self._proc, None
        await end_child(proc)

    async def close(self) -> None:
        await self.abort()


def main() -> int:
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="agy-adapter: %(levelname)s %(message)s")
    agent = NativeAgent("agy", "Antigravity", lambda config, native_id: AgyRuntime(config, native_id))
    with contextlib.suppress(KeyboardInterrupt):
        return asyncio.run(serve(agent))
    return 130


if __name__ == "__main__":
    sys.exit(main())
