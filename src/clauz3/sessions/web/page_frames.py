"""What the page receives, built at the web edge (issue 15): retained agent updates become the
page's own small, versioned JSON, so ``web/transcript.js`` reads clauz3 names, never ACP ones.

``{"method": "clauz3/agent", "params": {"v": 1, "kind": "text" | "tool" | "plan" | "other", …}}``;
the same conversion applies to every frame of a ``clauz3/restore`` history. Every other frame is
already clauz3's own and goes out unchanged.
"""

from __future__ import annotations

from typing import Any

from clauz3.sessions.agent.acp_messages import (
    AGENT_METHOD,
    AgentText,
    AgentUpdate,
    OtherUpdate,
    Plan,
    ToolCall,
    message_of,
)

PAGE_VERSION = 1


def page_frame(frame: dict[str, Any]) -> dict[str, Any]:
    method = frame.get("method")
    if method == "clauz3/restore":
        params = frame.get("params")
        if isinstance(params, dict) and isinstance(params.get("history"), list):
            history = [page_frame(f) for f in params["history"] if isinstance(f, dict)]
            return {**frame, "params": {**params, "history": history}}
        return frame
    message = message_of(frame)
    if message is None:
        return frame
    out: dict[str, Any] = {"method": AGENT_METHOD, "params": page_item(message)}
    if frame.get("unsaved") is True:
        out["unsaved"] = True
    return out


def page_item(message: AgentUpdate) -> dict[str, Any]:
    match message:
        case AgentText(chunk=chunk):
            return {"v": PAGE_VERSION, "kind": "text", "text": chunk}
        case ToolCall():
            return {"v": PAGE_VERSION, "kind": "tool", "id": message.tool_call_id, "title": message.title,
                    "status": message.status, "tool": message.shown_tool, "text": message.text or None,
                    "input": message.raw_input, "output": message.raw_output, "details": message.details or None}
        case Plan(entries=entries):
            return {"v": PAGE_VERSION, "kind": "plan",
                    "entries": [{"content": e.content, "status": e.status} for e in entries]}
        case OtherUpdate(kind=kind):
            # Stored by the host, not rendered (02 UI-16): the page only learns the kind.
            return {"v": PAGE_VERSION, "kind": "other", "type": kind}
