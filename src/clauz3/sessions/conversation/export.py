"""Transcript export (02 STORE-16, STORE-18): JSON or Markdown, metadata only for attachments.

Only retained frames and saved state are exported; process configuration (commands, env, bridge
entries) is never part of either, and attachment bytes never are.
"""

from __future__ import annotations

import re
import time
from typing import Any

from clauz3.sessions.agent.acp_messages import AgentText, ToolCall, message_of
from clauz3.sessions.agent.providers import SHORT_LABELS
from clauz3.sessions.conversation.saved_state import SavedState

_PRIVATE_STATE = ("session_id", "host_notes")


def public_state(state: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in state.items() if k not in _PRIVATE_STATE}


def filename(title: str, conversation_id: str, ext: str) -> str:
    slug = re.sub(r"[^a-z0-9-]+", "-", title.lower()).strip("-")[:40].strip("-") or "conversation"
    return f"clauz3-{slug}-{conversation_id[:8]}.{ext}"


def as_json(*, conversation_id: str, title: str, project: str, agent: str, model: str | None,
            state: dict[str, Any], history: list[dict[str, Any]]) -> dict[str, Any]:
    return {"schema_version": 1, "conversation_id": conversation_id, "title": title, "project": project,
            "agent": agent, "model": model, "exported_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "state": public_state(state), "history": history}


def as_markdown(*, title: str, project: str, agent: str, model: str | None, state: dict[str, Any],
                history: list[dict[str, Any]]) -> str:
    label = SHORT_LABELS.get(agent, agent)
    lines = [f"# {title}", "", f"Project: {project} · Agent: {label} · Model: {model or 'Agent default'}", ""]
    assistant: list[str] = []
    tools: dict[str, str] = {}

    def flush() -> None:
        if assistant or tools:
            lines.extend([f"## {label}", ""])
            if assistant:
                lines.extend(["".join(assistant), ""])
            lines.extend(f"- {t}" for t in tools.values())
            if tools:
                lines.append("")
        assistant.clear()
        tools.clear()

    for frame in history:
        method = frame.get("method")
        raw_params = frame.get("params")
        params = raw_params if isinstance(raw_params, dict) else {}
        if method == "clauz3/user":
            flush()
            names = ", ".join(str(a.get("name")) for a in params.get("attachments", []) if isinstance(a, dict))
            lines.extend(["## You", "", str(params.get("text", "")), ""])
            if names:
                lines.extend([f"Attachments: {names}", ""])
        elif (message := message_of(frame)) is not None:
            if isinstance(message, AgentText):
                assistant.append(message.chunk)
            elif isinstance(message, ToolCall):
                old = tools.get(message.tool_call_id, "")
                title_text = message.title or old.split(" — ")[0] or "Tool call"
                status = message.status or (old.split(" — ")[1] if " — " in old else "pending")
                tools[message.tool_call_id] = f"{title_text} — {status}"
        elif method == "clauz3/turn_end":
            flush()
    flush()
    runs = SavedState.from_json(state).runs  # the saved state's one reader types its runs
    if runs:
        lines.extend(["## Runs", ""])
        for run in runs:
            lines.append(f"- {run.request_id}: {run.phase}, exit code {run.record.exit_code}")
    return "\n".join(lines).rstrip() + "\n"
