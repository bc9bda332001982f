"""Operator skill documents (05 SKL-5) and the agents' session instructions (SKL-2).

``--skills-dir`` folders are snapshotted once at launch: walked with directory descriptors, never
following a link, reading only regular files named ``SKILL.md``. Documents are text served by id;
nothing here activates them as native agent skills.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from clauz3.layers.errors import LayersError

MAX_DOC_BYTES = 256 * 1024
MAX_DOCS = 128
MAX_TOTAL_BYTES = 2 * 1024 * 1024
MAX_ENTRIES = 4096
MAX_DEPTH = 16
PREVIEW_CHARS = 200
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


class SkillsError(LayersError):
    """A refused ``--skills-dir`` (exit 2); the message names the path."""


@dataclass(frozen=True)
class SkillDoc:
    id: str
    name: str
    preview: str
    content: str
    path: str

    def listing(self) -> dict[str, str]:
        """What ``list_skills`` shows (no path: documents are served by id only)."""
        return {"id": self.id, "name": self.name, "preview": self.preview}

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "preview": self.preview, "content": self.content}


def preview_of(text: str) -> str:
    """Frontmatter text (between ``---`` lines) or the document start, ≤ 200 characters, never parsed."""
    if text.startswith("---\n") or text.startswith("---\r\n"):
        body = text.split("\n", 1)[1]
        end = body.find("\n---")
        if end >= 0:
            return body[:end].strip()[:PREVIEW_CHARS]
    return text.strip()[:PREVIEW_CHARS]


class _Walk:
    def __init__(self) -> None:
        self.entries = 0
        self.total = 0
        self.docs: dict[str, SkillDoc] = {}

    def directory(self, fd: int, path: Path, depth: int) -> None:
        if depth > MAX_DEPTH:
            raise SkillsError(f"{path}: folders nested deeper than {MAX_DEPTH} levels")
        for name in sorted(os.listdir(fd)):
            self.entries += 1
            if self.entries > MAX_ENTRIES:
                raise SkillsError(f"{path}: more than {MAX_ENTRIES} entries to walk")
            full = path / name
            st = os.stat(name, dir_fd=fd, follow_symlinks=False)
            if stat.S_ISLNK(st.st_mode):
                raise SkillsError(f"{full}: symbolic link in a skills folder")
            if stat.S_ISDIR(st.st_mode):
                sub = os.open(name, _DIR_FLAGS, dir_fd=fd)
                try:
                    self.directory(sub, full, depth + 1)
                finally:
                    os.close(sub)
            elif name == "SKILL.md" and stat.S_ISREG(st.st_mode):
                self.document(fd, full, st)

    def document(self, dir_fd: int, path: Path, st: os.stat_result) -> None:
        if st.st_size > MAX_DOC_BYTES:
            raise SkillsError(f"{path}: {st.st_size} bytes, more than {MAX_DOC_BYTES}")
        fd = os.open("SKILL.md", os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK, dir_fd=dir_fd)
        with os.fdopen(fd, "rb") as fh:
            if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
                raise SkillsError(f"{path}: not a regular file")
            raw = fh.read(MAX_DOC_BYTES + 1)
        if len(raw) > MAX_DOC_BYTES:
            raise SkillsError(f"{path}: more than {MAX_DOC_BYTES} bytes")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise SkillsError(f"{path}: not UTF-8 text") from None
        doc_id = "skill:" + hashlib.sha256(str(path).encode("utf-8")).hexdigest()[:16]
        if doc_id in self.docs:
            return
        self.total += len(raw)
        if self.total > MAX_TOTAL_BYTES:
            raise SkillsError(f"{path}: skill documents exceed {MAX_TOTAL_BYTES} bytes in total")
        self.docs[doc_id] = SkillDoc(doc_id, path.parent.name, preview_of(text), text, str(path))
        if len(self.docs) > MAX_DOCS:
            raise SkillsError(f"{path}: more than {MAX_DOCS} skill documents")


def snapshot_skills(dirs: Sequence[str | os.PathLike[str]]) -> list[SkillDoc]:
    """Read every ``SKILL.md`` under the folders once (SKL-5); raises :class:`SkillsError` naming the path."""
    walk = _Walk()
    for d in dirs:
        path = Path(os.path.abspath(d))
        try:
            fd = os.open(path, _DIR_FLAGS)
        except OSError as exc:
            raise SkillsError(f"{path}: not a readable folder without links ({exc.strerror or exc})") from None
        try:
            walk.directory(fd, path, 0)
        except OSError as exc:
            raise SkillsError(f"{path}: cannot read ({exc.strerror or exc})") from None
        finally:
            os.close(fd)
    return [walk.docs[k] for k in sorted(walk.docs)]


def selected_line(docs: Sequence[SkillDoc]) -> str:
    return f"Skill documents: {len(docs)} selected"


def skills_fingerprint(docs: Sequence[SkillDoc]) -> str:
    """The ``skills`` part of a conversation's selection fingerprints (TRM-2)."""
    entries = {d.id: hashlib.sha256(d.content.encode("utf-8")).hexdigest() for d in docs}
    return hashlib.sha256(json.dumps(entries, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


BASE_INSTRUCTIONS = """\
You work inside clauz3. Read the document builtin:clauz3-authoring first (read_skill).
- `tools` discovers the effects and contracts you may use; `libraries` browses the available libraries; \
`list_skills` and `read_skill` give documents (text, not permissions); `status` reports runs.
- Only the `awaiting_approval` phase means a person is deciding.
- Submit Python to `run`: import from `tools.<domain>.trusted`, define `main()`, and attach guarantees with \
literal arguments.
- Nothing executes without a proof and a signed approval. Never invent tools and never install code; ask the \
user to install a missing library. If tools are unavailable, say that nothing executed."""

RESTRICTED = "- Restricted mode: all file access and effects go through clauz3."
UNRESTRICTED = ("- Unrestricted mode: your native tools bypass proofs and approval; anything you do with them is "
                "not checked by clauz3.")
BROWSER = "- You are in the browser workspace: slash commands are not available."


def session_instructions(*, unrestricted: bool = False, browser: bool = False, tutorial: str | None = None,
                         skills: Sequence[SkillDoc] = ()) -> str:
    """SKL-2 session instructions (delivery is the provider's, 04)."""
    parts = [BASE_INSTRUCTIONS, UNRESTRICTED if unrestricted else RESTRICTED]
    if browser:
        parts.append(BROWSER)
    if tutorial:
        parts.append(f"- This is a tutorial: read builtin:tutorial:{tutorial} and follow it.")
    if skills:
        parts.append("- Operator documents are available: " + ", ".join(f"{d.id} ({d.name})" for d in skills) + ".")
    return "\n".join(parts) + "\n"
