"""Notice codes and texts (02 §4.5) and the progress texts the page shows (TURN-10)."""

from __future__ import annotations

from typing import Any

TEXTS = {
    "bad_frame": "The workspace received a malformed message.",
    "unsupported_method": "Unsupported workspace operation.",
    "stale_conversation": "This view was out of date and has been refreshed.",
    "busy": "An action is still running; wait for it or press Stop.",
    "prompt_invalid": "Enter a prompt of 1–20,000 characters.",
    "slash_command": "Agent slash commands are disabled in this workspace.",
    "storage_full": "This conversation's transcript is full. Start a new conversation to continue.",
    "storage_limit_reached": (
        "Transcript storage limit reached. This action can finish, but later output will not be saved."
    ),
    "libraries_changed": (
        "Libraries used here were changed or removed since the last run. The history stays readable; to go on, "
        "continue with the installed libraries or open a new conversation."
    ),
    "agent_unavailable": "{agent} can't start: {reason}",
    "agent_stopped": "Stopped {agent}. Your conversation is saved; send a message to continue.",
    "agent_exited": "{agent} exited unexpectedly. Your conversation is saved; send a message to restart it.",
    "resume_unsupported": (
        "{agent} can't reload earlier conversations. The transcript stays visible; new messages start a fresh agent "
        "session without the earlier turns."
    ),
    "resume_failed": "Couldn't resume this conversation. Your transcript is saved; new messages start a fresh agent "
    "session.",
    "permission_refused": "Unexpected agent tool permission refused. Actions must use the clauz3 tools.",
    "no_response": "The agent returned no response. Check its sign-in and model (use --model).",
    "workspace_invalid": "Choose an existing folder by its absolute path.",
    "project_in_use": "That project is already open in another clauz3 workspace.",
    "switch_failed": "Couldn't open that workspace: {reason}. You're still in {name}.",
    "attachment_invalid": "That attachment is no longer available. Attach it again.",
    "attachments_unsupported": "{agent} doesn't accept {kind} attachments.",
    "too_many_attachments": "Attach at most 10 files to one message.",
    "not_found": "That conversation isn't in this workspace.",
    "invalid_title": "Enter a title of 1–120 characters.",
    "conversation_in_use": "This conversation is open in another clauz3 process.",
}
RETAINED = frozenset({"agent_stopped", "agent_exited", "permission_refused", "no_response"})
WARNINGS = frozenset({"storage_limit_reached", "libraries_dropped"})
INFOS = frozenset({"resume_unsupported", "claude_not_installed"})


def notice(code: str, text: str | None = None, *, level: str | None = None, **fmt: str) -> dict[str, Any]:
    """A ``clauz3/notice`` frame; ``text`` overrides the table (and is used for unlisted codes)."""
    body = text if text is not None else TEXTS[code].format(**fmt)
    if level is None:
        level = "warning" if code in WARNINGS else "info" if code in INFOS else "error"
    return {"method": "clauz3/notice", "params": {"level": level, "code": code, "text": body}}
