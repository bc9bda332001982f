"""A run as a conversation keeps it: the bridge's typed :class:`RunRecord` plus the host's own fields.

Run records are parsed once where they enter the host — the bridge's lifetime connection
(``lifetime.py``) or the saved state (:meth:`ConversationRun.from_json`, called by ``saved_state.py``) —
and become JSON again only at the edges that write it: the saved state, the page's state frame and
the exports (:meth:`ConversationRun.to_json`). Nothing in between reads a run as a dict.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from clauz3.runs.records import Phase, RunRecord


@dataclass(frozen=True)
class RunUndo:
    """05 FS-5: whether a finished run's file changes can be undone, or were (02 §4.6 ``undo``)."""

    available: bool = False
    undone: bool = False

    def to_json(self) -> dict[str, bool]:
        return {"available": self.available, "undone": self.undone}

    @classmethod
    def from_json(cls, doc: object) -> RunUndo:
        if not isinstance(doc, dict):
            return cls()
        return cls(available=doc.get("available") is True, undone=doc.get("undone") is True)


UNDONE = RunUndo(available=False, undone=True)

MAX_CARD_LINES = 40  # plan sentences or guarantees kept per run: the export's words, not the whole card


def _lines(value: object) -> tuple[str, ...]:
    if not isinstance(value, list | tuple):
        return ()
    return tuple(str(v)[:1000] for v in value[:MAX_CARD_LINES] if isinstance(v, str) and v)


@dataclass(frozen=True)
class RunCard:
    """What the person approved, in words (issue 22 item 10): the card's plan and its proved guarantees,
    kept with the run so the Markdown export has them after a restart, when the authority's approval
    records (which live only while the service runs) are gone."""

    plan: tuple[str, ...] = ()
    guarantees: tuple[str, ...] = ()

    @property
    def empty(self) -> bool:
        return not self.plan and not self.guarantees

    def to_json(self) -> dict[str, list[str]]:
        return {"plan": list(self.plan), "guarantees": list(self.guarantees)}

    @classmethod
    def from_json(cls, doc: object) -> RunCard:
        if not isinstance(doc, dict):
            return cls()
        return cls(plan=_lines(doc.get("plan")), guarantees=_lines(doc.get("guarantees")))

    @classmethod
    def from_presentation(cls, presentation: object) -> RunCard:
        """The plan and guarantee sentences of an approval record's presentation (02 §4.5 ``summary``)."""
        summary = presentation.get("summary") if isinstance(presentation, dict) else None
        if not isinstance(summary, dict):
            return cls()
        plan = summary.get("plan")
        guarantees = summary.get("guarantees")
        texts = [g.get("text") for g in guarantees if isinstance(g, dict)] if isinstance(guarantees, list) else []
        return cls(plan=_lines(plan.get("sentences") if isinstance(plan, dict) else None), guarantees=_lines(texts))


@dataclass
class ConversationRun:
    """One run of the conversation. Change it only through its methods: its JSON is kept between
    changes, because the conversation saves its state (all its runs) with every streamed frame."""

    record: RunRecord
    turn: int | None = None  # the turn the run belongs to (None: saved by a version that did not record it)
    undo: RunUndo = field(default_factory=RunUndo)
    card: RunCard = field(default_factory=RunCard)
    # ``elapsed_seconds`` of a run that has not ended is measured when its record reached the host,
    # as the saved state and the page have always shown it, not whenever the JSON happens to be built.
    seen_at: float = field(default_factory=time.time)
    _json: dict[str, Any] | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def request_id(self) -> str:
        return self.record.request_id

    @property
    def phase(self) -> Phase:
        return self.record.phase

    @property
    def final(self) -> bool:
        return self.record.final

    def update(self, record: RunRecord) -> None:
        """The bridge's newer record of this run (00 DEC-5)."""
        self.record = record
        self.seen_at = time.time()
        self._json = None

    def set_undo(self, undo: RunUndo) -> None:
        self.undo = undo
        self._json = None

    def set_card(self, card: RunCard) -> None:
        """The approval record's plan and guarantees, once they are known (an empty card changes nothing)."""
        if not card.empty and card != self.card:
            self.card = card
            self._json = None

    def stop(self) -> None:
        """The host stopped (agent gone, service closing) before the bridge said how the run ended."""
        self.record.phase = Phase.CANCELLED
        self.record.reason = "stopped"
        self._json = None

    def reconcile(self, ledger_record: RunRecord) -> None:
        """QB-13: the ledger's verdict on a run a dead service left executing (phase, reason, exit code)."""
        self.record.phase = ledger_record.phase
        self.record.reason = ledger_record.reason
        self.record.exit_code = ledger_record.exit_code
        self._json = None

    def to_json(self) -> dict[str, Any]:
        """The run as the saved state, the page (02 §4.6 ``runs``) and the exports show it (a new dict
        each call; nested values are shared with the kept JSON and must not be changed)."""
        if self._json is None:
            self._json = self._render()
        return dict(self._json)

    def _render(self) -> dict[str, Any]:
        out: dict[str, Any] = {} if self.turn is None else {"turn": self.turn}
        out["undo"] = self.undo.to_json()
        if not self.card.empty:
            out["card"] = self.card.to_json()
        out.update(self.record.to_json())
        if self.record.ended_at is None:
            out["elapsed_seconds"] = round(max(0.0, self.seen_at - self.record.started_at), 3)
        return out

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> ConversationRun:
        """Inverse of :meth:`to_json`; ``ValueError``/``TypeError``/``KeyError`` on a record this
        version cannot read."""
        if not isinstance(doc.get("request_id"), str):
            raise ValueError("no request id")
        record = RunRecord.from_json(doc)
        turn = doc.get("turn")
        elapsed = doc.get("elapsed_seconds")
        seen_at = record.started_at + float(elapsed) if isinstance(elapsed, int | float) else record.updated_at
        return cls(record=record, turn=turn if isinstance(turn, int) and not isinstance(turn, bool) else None,
                   undo=RunUndo.from_json(doc.get("undo")), card=RunCard.from_json(doc.get("card")), seen_at=seen_at)
