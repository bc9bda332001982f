"""Transcript export (02 STORE-16, STORE-18): JSON or Markdown, metadata only for attachments.

Only retained frames and saved state are exported; process configuration (commands, env, bridge
entries) is never part of either, and attachment bytes never are.
"""

from __future__ import annotations

import re
import time
from collections.abc import Mapping
from typing import Any

from clauz3.sessions.agent.acp_messages import AgentText, ToolCall, message_of
from clauz3.sessions.agent.providers import SHORT_LABELS
from clauz3.sessions.conversation.export_runs import run_lines, runs_of_turn
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
                history: list[dict[str, Any]], presentations: Mapping[str, Mapping[str, Any]] | None = None) -> str:
    """The transcript as Markdown: each turn's prompt, the agent's reply and tool rows, then each run card of
    the turn (plan, proved guarantees, decision, outcome; issue 22). Tool rows are keyed by (turn, id):
    ids are unique only within one agent process, and a resumed agent may reuse one (as transcript.js does)."""
    label = SHORT_LABELS.get(agent, agent)
    lines = [f"# {title}", "", f"Project: {project} · Agent: {label} · Model: {model or 'Agent default'}", ""]
    runs = SavedState.from_json(state).runs  # the saved state's one reader types its runs
    shown = presentations or {}
    assistant: list[str] = []
    tools: dict[tuple[int, str], str] = {}
    turn = 0
    placed: set[int | None] = set()

    def flush(end_of_turn: bool = False) -> None:
        if assistant or tools:
            lines.extend([f"## {label}", ""])
            if assistant:
                lines.extend(["".join(assistant), ""])
            lines.extend(f"- {t}" for t in tools.values())
            if tools:
                lines.append("")
        assistant.clear()
        tools.clear()
        if end_of_turn and turn not in placed:
            placed.add(turn)
            lines.extend(runs_of_turn(runs, turn, shown))

    for frame in history:
        method = frame.get("method")
        raw_params = frame.get("params")
        params = raw_params if isinstance(raw_params, dict) else {}
        if method == "clauz3/user":
            flush(end_of_turn=True)
            raw_turn = params.get("turn")
            turn = raw_turn if isinstance(raw_turn, int) else turn + 1
            names = ", ".join(str(a.get("name")) for a in params.get("attachments", []) if isinstance(a, dict))
            lines.extend(["## You", "", str(params.get("text", "")), ""])
            if names:
                lines.extend([f"Attachments: {names}", ""])
        elif (message := message_of(frame)) is not None:
            if isinstance(message, AgentText):
                assistant.append(message.chunk)
            elif isinstance(message, ToolCall):
                key = (turn, message.tool_call_id)
                old = tools.get(key, "")
                title_text = message.title or old.split(" — ")[0] or "Tool call"
                status = message.status or (old.split(" — ")[1] if " — " in old else "pending")
                tools[key] = f"{title_text} — {status}"
        elif method == "clauz3/turn_end":
            flush(end_of_turn=True)
    flush(end_of_turn=True)
    unplaced = [run for run in runs if run.turn not in placed]
    if unplaced:
        lines.extend(["## Runs", ""])
        for run in unplaced:
            lines.extend(run_lines(run, shown.get(run.request_id)))
    return "\n".join(lines).rstrip() + "\n"
