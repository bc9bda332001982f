"""Copy handoff (05 §12): a new private snapshot file per call, never modified or reused.

The file is written to a temp name and linked into place without replacing anything; exact
occurrences of current secrets are replaced by ``[redacted]`` (HND-3).
"""

from __future__ import annotations

import json
import os
import secrets
import stat
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from clauz3.sessions.conversation.export import public_state
from clauz3.sessions.errors import SessionError

MAX_BYTES = 64 * 1024 * 1024
EXPLAIN = "The file holds this conversation's messages, raw tool calls and results, run diagnostics and settings."


class HandoffUnsafe(SessionError):
    """The handoffs folder is a symbolic link or not a private directory (05 DATA-*)."""


class HandoffTooLarge(SessionError):
    pass


def hide_secrets(text: str, secrets_to_hide: Iterable[str]) -> str:
    """HND-3: exact occurrences of current secrets (16 characters or more) become ``[redacted]``."""
    for secret in secrets_to_hide:
        if secret and len(secret) >= 16:
            text = text.replace(secret, "[redacted]")
    return text


def write_handoff(data_dir: Path, *, conversation_id: str, title: str, project: str, agent: str,
                  model: str | None, state: dict[str, Any], history: list[dict[str, Any]],
                  secrets_to_hide: Iterable[str]) -> dict[str, str]:
    captured = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    pub = public_state(state)
    body = {
        "schema_version": 1, "conversation_id": conversation_id, "title": title, "project": project,
        "captured_at": captured, "agent": agent, "model": model, "mode": pub.get("mode", "restricted"),
        "libraries": pub.get("libraries", []), "library_hashes": pub.get("library_hashes", {}),
        "library_fingerprint": pub.get("library_fingerprint"), "approvals_paused": pub.get("approvals_paused", False),
        "turn": max([int(f.get("params", {}).get("turn", 0)) for f in history
                     if f.get("method") == "clauz3/user"] or [0]),
        "settings": {"model": model}, "runs": pub.get("runs", []), "history": history,
    }
    text = hide_secrets(json.dumps(body, ensure_ascii=False, indent=1), secrets_to_hide)
    data = text.encode("utf-8")
    if len(data) > MAX_BYTES:
        raise HandoffTooLarge("This conversation is too large to hand off")
    folder = data_dir / "handoffs"
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    info = os.lstat(folder)
    if stat.S_ISLNK(info.st_mode) or not stat.S_ISDIR(info.st_mode):
        raise HandoffUnsafe(f"refusing to write a handoff: {folder} is a symbolic link or not a folder")
    final = folder / f"{conversation_id}-{stamp}-{secrets.token_hex(4)}.json"
    tmp = folder / f".{final.name}.{secrets.token_hex(4)}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.link(tmp, final)  # fails rather than replace an existing file
    finally:
        tmp.unlink(missing_ok=True)
    lines = [f"Clauz3 conversation: {conversation_id}", f"Project: {project}", f"Title: {title}",
             f"Handoff file: {final}", f"Captured: {captured}", EXPLAIN]
    return {"path": str(final), "text": "\n".join(lines)}
