"""The conversation's provenance index (issue 20): what the person wrote, what the agent read.

Fed one retained frame at a time, as the frame is stored (:meth:`ConversationRuntime.retain`), and
once from the stored history when a conversation opens, so a submission never rescans the
transcript. The person's own messages (``clauz3/user``) are *you*; what the agent received from a
tool is *read*: a run's output (its stdout and stderr, and what its record says about the values the run
saw — an error quoting a page, a stopped call's arguments — without the program's own literals), a clauz3 tool's answer other than ``status`` (which repeats earlier runs), and
any other tool's result. The agent's own words and the arguments it passes are neither: a value only
the agent wrote is *new*.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from typing import Any

from clauz3.approvals.provenance import read_labels, source_literals
from clauz3.base.provenance import TranscriptIndex
from clauz3.sessions.agent.acp_messages import ToolCall, message_of

FINAL_STATUSES = frozenset({"completed", "failed"})
SKIPPED_TOOLS = frozenset({"status"})  # repeats the host's own run records (the programs' literals)
CLAUZ3_TOOLS = {"tools": "the clauz3 tools listing", "libraries": "the clauz3 library listing",
                "list_skills": "the clauz3 guides listing", "read_skill": "a clauz3 guide"}
MAX_TEXT = 4 * 1024 * 1024  # one tool result indexed at most this long (a run's output is capped at 1 MiB)


def _at(when: float | None) -> str:
    return "" if when is None else time.strftime(" at %H:%M", time.localtime(when))


def run_output(call: ToolCall) -> str:
    """The part of a ``run`` result the program printed: stdout and stderr, never the record's JSON."""
    raw = call.raw_output
    if isinstance(raw, dict) and ("stdout" in raw or "stderr" in raw):
        return "\n".join(str(raw.get(k) or "") for k in ("stdout", "stderr")).strip()
    text = call.text
    start = text.find("--- output ---")
    if start < 0:
        start = text.find("--- errors ---")
    if start < 0:
        return ""
    end = text.rfind("\nStatus: ")
    return text[start: end if end > start else len(text)]


TOLD_FIELDS = ("message", "summary", "obligation", "end_state")  # record fields that may quote a run's values


def run_told(call: ToolCall, program: str | None) -> str:
    """What else a ``run`` result tells the agent about the values the run saw (redteam w2): the record's
    message (``KeyError: '<the page>'``, the arguments of a call the monitor stopped), its outcome summary
    and obligation, without the program's own literals (they are the agent's words, not read data; a
    literal the record escapes differently stays, and at worst makes a value the agent made up look read)."""
    raw = call.raw_output
    if isinstance(raw, dict):
        parts = [raw.get(k) for k in TOLD_FIELDS]
        text = "\n".join(p if isinstance(p, str) else json.dumps(p, ensure_ascii=False, default=str)
                         for p in parts if p)
    else:
        text = call.text
        start = text.find("\nreason: ")
        text = text[start:] if start >= 0 else ""
    if not text:
        return ""
    for literal in sorted(set(source_literals(program or "") or []), key=len, reverse=True):
        if len(literal) >= 2:
            text = text.replace(literal, " ")
    return text


def _request_id(call: ToolCall) -> str | None:
    raw = call.raw_output
    if isinstance(raw, dict) and isinstance(raw.get("request_id"), str):
        return raw["request_id"]
    for line in call.text.splitlines()[:3]:
        if line.startswith("request id: "):
            return line[len("request id: "):].strip() or None
    return None


class ConversationProvenance:
    """One conversation's :class:`TranscriptIndex` and the names of its sources."""

    def __init__(self) -> None:
        self.index = TranscriptIndex()
        # Keyed by (turn, tool call id): an agent started again (a resume) may reuse its ids, and a reused id
        # must not make a new turn's result look indexed already (it would then be no source at all).
        self._turn = 0
        self._tools: dict[tuple[int, str], tuple[str | None, str | None]] = {}  # → (tool, title)
        self._runs: dict[str, int] = {}  # request id → run number in this conversation
        self._done: set[tuple[int, str]] = set()  # calls whose final result is indexed
        self._programs: dict[tuple[int, str], str] = {}  # the program a ``run`` call submitted (its input)

    def observe(self, frame: Mapping[str, Any], approvals: Mapping[str, Mapping[str, Any]],
                at: float | None = None, *, live: bool = True) -> None:
        """Index one retained frame; ``approvals`` are the conversation's approval records (what a run read).
        ``at`` is when it arrived (now, for a live frame; unknown for a stored one without a time)."""
        when = at if at is not None else time.time() if live else None
        if frame.get("method") == "clauz3/user":
            params = frame.get("params")
            text = params.get("text") if isinstance(params, dict) else None
            self._turn += 1
            if isinstance(text, str):
                self.index.add("you", text, "your message")
            return
        params = frame.get("params")
        if frame.get("method") == "clauz3/agent" and not (isinstance(params, dict) and params.get("kind") == "tool_call"):
            return  # the agent's own words (every streamed chunk): never a source, and never worth a parse
        message = message_of(dict(frame))
        if not isinstance(message, ToolCall):
            return
        key = (self._turn, message.tool_call_id)
        tool, title = self._tools.get(key, (None, None))
        tool = message.tool or tool
        title = message.title or title
        self._tools[key] = (tool, title)
        raw_in = message.raw_input
        if isinstance(raw_in, dict) and isinstance(raw_in.get("source"), str):
            self._programs[key] = raw_in["source"]
        if message.status not in FINAL_STATUSES or key in self._done:
            return
        self._done.add(key)
        if tool in SKIPPED_TOOLS:
            return
        if tool == "run":
            request_id = _request_id(message)
            record = approvals.get(request_id or "") or {}
            program = self._programs.pop(key, None) or (record.get("program") if isinstance(record, Mapping) else None)
            text = "\n".join(t for t in (run_output(message), run_told(message, program)) if t)
            number = self._runs.setdefault(request_id or f"{self._turn}:{message.tool_call_id}", len(self._runs) + 1)
            reads = read_labels(record.get("effects") if isinstance(record, Mapping) else None)
            what = " and ".join(reads[:2])
            label = f"{what}, read in run {number}{_at(when)}" if reads else f"the output of run {number}{_at(when)}"
        elif tool in CLAUZ3_TOOLS:
            text, label = message.text, f"{CLAUZ3_TOOLS[tool]}{_at(when)}"
        else:
            text = message.text
            if message.raw_output is not None and not isinstance(message.raw_output, str):
                text += "\n" + json.dumps(message.raw_output, ensure_ascii=False, default=str)
            elif isinstance(message.raw_output, str):
                text += "\n" + message.raw_output
            label = f"the result of the tool “{title or 'tool'}”{_at(when)}"
        if text:
            self.index.add("read", text[:MAX_TEXT], label)

    def rebuild(self, history: list[dict[str, Any]]) -> None:
        """Index a stored transcript (a conversation opened again); earlier approval records are gone,
        so a run's source is named by its number only."""
        for frame in history:
            self.observe(frame, {}, at=_frame_time(frame), live=False)


def _frame_time(frame: Mapping[str, Any]) -> float | None:
    at = frame.get("ts") if isinstance(frame, Mapping) else None
    return float(at) if isinstance(at, int | float) and not isinstance(at, bool) else None
