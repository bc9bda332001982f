"""A conversation's saved state (02 STORE-4, 05 SEL-6): the typed form of the ``state`` column.

:meth:`SavedState.from_json` is the one reader of the stored JSON and :meth:`SavedState.to_json`
the one writer; keys this version does not know are kept in ``extra`` and written back as they
were, so a newer clauz3's fields survive an older one opening the conversation.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field, fields
from typing import Any

from clauz3.sessions.conversation.runs import ConversationRun

log = logging.getLogger("clauz3.sessions.conversation.saved_state")


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _texts(value: Any) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _objects(value: Any) -> list[dict[str, Any]]:
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def _runs(value: Any) -> list[ConversationRun]:
    """The saved run records, typed; one this version cannot read is left out (and logged)."""
    runs = []
    for doc in _objects(value):
        if "request_id" not in doc:
            continue
        try:
            runs.append(ConversationRun.from_json(doc))
        except (TypeError, ValueError, KeyError) as exc:
            log.warning("a saved run record this version cannot read is left out: %s", exc)
    return runs


@dataclass
class SavedState:
    mode: str | None = None  # "restricted" | "unrestricted": the mode it was started in
    session_id: str | None = None  # the agent's ACP session, for session/load (RSM-2)
    agent_version: str | None = None
    model: str | None = None
    renamed: bool = False  # the person chose the title (a first turn no longer names it)
    native_terminal: bool = False  # Claude Code's own terminal UI has used this conversation
    history_limited: bool = False  # STORE-9: the transcript reached its limit
    libraries: list[str] = field(default_factory=list)
    library_hashes: dict[str, str] = field(default_factory=dict)
    library_fingerprint: str | None = None
    libraries_changed: bool = False  # SEL-15: read-only until the person decides
    approvals_paused: bool = False  # SEL-12: automatic approvals stopped for the rest of it
    library_changes: list[dict[str, Any]] = field(default_factory=list)  # undelivered to the agent
    host_notes: list[str] = field(default_factory=list)  # undelivered to the agent (TURN-3)
    runs: list[ConversationRun] = field(default_factory=list)  # the newest 50 run records
    extra: dict[str, Any] = field(default_factory=dict, repr=False)

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> SavedState:
        known = {f.name for f in fields(cls)} - {"extra"}
        hashes = doc.get("library_hashes")
        return cls(
            mode=_text(doc.get("mode")), session_id=_text(doc.get("session_id")) or None,
            agent_version=_text(doc.get("agent_version")), model=_text(doc.get("model")),
            renamed=doc.get("renamed") is True, native_terminal=doc.get("native_terminal") is True,
            history_limited=doc.get("history_limited") is True, libraries=_texts(doc.get("libraries")),
            library_hashes={k: v for k, v in hashes.items() if isinstance(v, str)} if isinstance(hashes, dict) else {},
            library_fingerprint=_text(doc.get("library_fingerprint")),
            libraries_changed=doc.get("libraries_changed") is True, approvals_paused=doc.get("approvals_paused") is True,
            library_changes=_objects(doc.get("library_changes")), host_notes=_texts(doc.get("host_notes")),
            runs=_runs(doc.get("runs")),
            extra={k: v for k, v in doc.items() if k not in known},
        )

    def to_json(self) -> dict[str, Any]:
        doc = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "extra"}
        doc["runs"] = [run.to_json() for run in self.runs]
        return {**self.extra, **doc}

    def set_selection(self, selection: dict[str, Any]) -> None:
        """Take ``libraries``/``library_hashes``/``library_fingerprint`` as :func:`.libraries.selection_fields`
        computed them."""
        self.libraries = _texts(selection.get("libraries"))
        hashes = selection.get("library_hashes")
        self.library_hashes = dict(hashes) if isinstance(hashes, dict) else {}
        self.library_fingerprint = _text(selection.get("library_fingerprint"))
