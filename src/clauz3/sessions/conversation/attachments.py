"""Attachments (02 §9): sniffed by content, stored outside the project under a random id.

Bytes live in ``<data>/attachments/<conversation_id>/<id>`` (0600, dir 0700) with a small JSON
sidecar ``<id>.json`` holding the metadata; the user's file name never forms a path.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import os
import secrets
import shutil
import time
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from clauz3.sessions.errors import SessionError
from clauz3.sessions.store.store import is_conversation_id

MAX_BYTES = 10_485_760
MAX_UNSENT = 10
STALE_SECONDS = 24 * 3600
_ID_CHARS = frozenset("0123456789abcdef")


class AttachmentError(SessionError):
    """A refused attachment: ``code`` (mapped to an HTTP status by the web routes) and one sentence."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def sniff(data: bytes) -> tuple[str, str] | None:
    """(kind, mime type) by magic bytes or strict UTF-8 text; None otherwise (ATT-1)."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image", "image/png"
    if data.startswith(b"\xff\xd8\xff"):
        return "image", "image/jpeg"
    if data.startswith((b"GIF87a", b"GIF89a")):
        return "image", "image/gif"
    if len(data) >= 12 and data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image", "image/webp"
    if b"\x00" in data:
        return None
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return "text", "text/plain"


def clean_name(header: str | None) -> str:
    """ATT-2: basename, control characters removed, ≤ 255 bytes, empty → ``attachment``."""
    raw = unquote(header or "", errors="replace")
    base = raw.replace("\\", "/").rsplit("/", 1)[-1]
    base = "".join(c for c in base if ord(c) >= 32 and ord(c) != 127)
    encoded = base.encode("utf-8")[:255]
    base = encoded.decode("utf-8", errors="ignore")
    return base if base not in ("", ".", "..") else "attachment"


def _valid_id(value: str) -> bool:
    return len(value) == 32 and set(value) <= _ID_CHARS


class AttachmentStore:
    def __init__(self, data_dir: Path) -> None:
        self.root = data_dir / "attachments"

    def _dir(self, conversation_id: str) -> Path:
        if not is_conversation_id(conversation_id):
            raise AttachmentError("stale_conversation", "This view was out of date; reload the page.")
        return self.root / conversation_id

    def _meta(self, conversation_id: str, attachment_id: str) -> dict[str, Any] | None:
        if not _valid_id(attachment_id) or not is_conversation_id(conversation_id):
            return None
        try:
            fd = os.open(self.root / conversation_id / f"{attachment_id}.json", os.O_RDONLY | os.O_NOFOLLOW)
            with os.fdopen(fd, "rb") as fh:
                meta = json.loads(fh.read(65536))
        except (OSError, ValueError):
            return None
        return meta if isinstance(meta, dict) else None

    def _write_meta(self, folder: Path, meta: dict[str, Any]) -> None:
        path = folder / f"{meta['id']}.json"
        tmp = folder / f".{meta['id']}.json.tmp"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(meta, fh)
        os.replace(tmp, path)

    def unsent_list(self, conversation_id: str) -> list[dict[str, Any]]:
        folder = self.root / conversation_id
        out = []
        with contextlib.suppress(OSError):
            for name in os.listdir(folder):
                if name.endswith(".json") and not name.startswith("."):
                    meta = self._meta(conversation_id, name[:-5])
                    if meta is not None and not meta.get("sent"):
                        out.append(meta)
        return out

    async def save(self, conversation_id: str, name_header: str | None, chunks: Any) -> dict[str, Any]:
        """Stream the body into a private file; 413 while streaming (nothing kept), 415 by content."""
        folder = self._dir(conversation_id)
        if len(self.unsent_list(conversation_id)) >= MAX_UNSENT:
            raise AttachmentError("too_many_attachments", "Attach at most 10 files to one message.")
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        os.chmod(self.root, 0o700)
        attachment_id = secrets.token_hex(16)
        path = folder / attachment_id
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        size = 0
        digest = hashlib.sha256()
        head = b""
        ok = False
        try:
            async for chunk in chunks:
                size += len(chunk)
                if size > MAX_BYTES:
                    raise AttachmentError("too_large", "Attachments can be at most 10 MB.")
                digest.update(chunk)
                os.write(fd, chunk)
            os.close(fd)
            fd = -1
            with open(path, "rb") as fh:
                head = fh.read()
            found = sniff(head)
            if found is None:
                raise AttachmentError("unsupported_media_type",
                                      "Attach images (PNG, JPEG, GIF, WebP) or UTF-8 text files.")
            ok = True
        finally:
            if fd >= 0:
                os.close(fd)
            if not ok:
                path.unlink(missing_ok=True)
        kind, mime = found
        meta = {"id": attachment_id, "name": clean_name(name_header), "mime_type": mime, "size": size, "kind": kind,
                "sha256": digest.hexdigest(), "created": time.time(), "sent": False}
        self._write_meta(folder, meta)
        return meta

    def unsent(self, conversation_id: str, attachment_id: str) -> dict[str, Any] | None:
        meta = self._meta(conversation_id, attachment_id)
        if meta is None or meta.get("sent"):
            return None
        return public(meta)

    def read(self, conversation_id: str, attachment_id: str) -> tuple[dict[str, Any], bytes] | None:
        meta = self._meta(conversation_id, attachment_id)
        if meta is None:
            return None
        try:
            fd = os.open(self.root / conversation_id / attachment_id, os.O_RDONLY | os.O_NOFOLLOW)
            with os.fdopen(fd, "rb") as fh:
                return meta, fh.read(MAX_BYTES + 1)
        except OSError:
            return None

    def delete(self, conversation_id: str, attachment_id: str) -> int:
        """200 deleted, 404 unknown, 409 sent (ATT-6)."""
        meta = self._meta(conversation_id, attachment_id)
        if meta is None:
            return 404
        if meta.get("sent"):
            return 409
        folder = self.root / conversation_id
        (folder / attachment_id).unlink(missing_ok=True)
        (folder / f"{attachment_id}.json").unlink(missing_ok=True)
        return 200

    def mark_sent(self, conversation_id: str, ids: list[str]) -> None:
        for attachment_id in ids:
            meta = self._meta(conversation_id, attachment_id)
            if meta is not None:
                meta["sent"] = True
                self._write_meta(self.root / conversation_id, meta)

    def blocks(self, conversation_id: str, staged: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """ATT-5: ACP content blocks after the text; the transcript keeps metadata only."""
        out: list[dict[str, Any]] = []
        for item in staged:
            found = self.read(conversation_id, str(item.get("id")))
            if found is None:
                continue
            meta, data = found
            if meta["kind"] == "image":
                out.append({"type": "image", "mimeType": meta["mime_type"], "data": base64.b64encode(data).decode()})
            else:
                out.append({"type": "resource", "resource": {
                    "uri": f"attachment:///{meta['id']}/{meta['name']}", "mimeType": meta["mime_type"],
                    "text": data.decode("utf-8")}})
        return out

    def delete_conversation(self, conversation_id: str) -> None:
        if is_conversation_id(conversation_id):
            shutil.rmtree(self.root / conversation_id, ignore_errors=True)

    def prune_old(self, now: float | None = None) -> None:
        """Unsent attachments older than 24 h go at startup (ATT-6)."""
        current = time.time() if now is None else now
        with contextlib.suppress(OSError):
            for cid in os.listdir(self.root):
                for meta in self.unsent_list(cid):
                    if current - float(meta.get("created", current)) > STALE_SECONDS:
                        self.delete(cid, meta["id"])


def public(meta: dict[str, Any]) -> dict[str, Any]:
    return {k: meta[k] for k in ("id", "name", "mime_type", "size", "kind")}
