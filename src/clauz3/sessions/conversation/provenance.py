"""The conversation's provenance index (issue 20): what the person wrote, what the agent read.

Fed one retained frame at a time, as the frame is stored (:meth:`ConversationRuntime.retain`), and
once from the stored history when a conversation opens, so a submission never rescans the
transcript. The person's own messages (``clauz3/user``) are *you*; everything the agent was shown is
*read*: every text of every tool call frame — its content blocks of any type, its ``rawOutput`` walked
as the strings it holds, at any status and at any time (an update never removes what was shown) — the
text of the files the person attached, and every run's record however it reached the agent (its
``run`` answer, a later ``status``, or the record the bridge pushes to the host: :meth:`run_record`).
What the agent may read but the index cannot (an attached image, a screenshot a tool returned, a frame
that failed to index) leaves no value *new* (:meth:`TranscriptIndex.add_opaque`). The agent's own words
and the arguments it passes (a call's ``rawInput``, a program's source) are neither: a value only the
agent wrote is *new*. Red team rt20: anything left out of the index let a value the agent was shown
pass as one it made up.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Mapping
from typing import Any

from clauz3.approvals.provenance import read_labels
from clauz3.base.provenance import TranscriptIndex
from clauz3.sessions.agent.acp_messages import (
    AGENT_WORDS,
    ToolCall,
    message_of,
    other_update_strings,
    strings_of,
)
from clauz3.vocabulary.describe import prose_join, reads_label

log = logging.getLogger("clauz3.sessions.conversation.provenance")

CLAUZ3_TOOLS = {"tools": "the clauz3 tools listing", "libraries": "the clauz3 library listing",
                "list_skills": "the clauz3 guides listing", "read_skill": "a clauz3 guide"}
# A text that grows from one update to the next (a result streamed) is indexed again from this far before the end
# of what was indexed already: more than the longest literal the prover reports (20,000 characters), so a value
# that ends in the new part is whole in what is indexed.
OVERLAP = 64 * 1024

# Reads the text of an attached file by its id; None when it is gone (or no attachment store is known).
AttachmentText = Callable[[str], str | None]


def _at(when: float | None) -> str:
    return "" if when is None else time.strftime(" at %H:%M", time.localtime(when))


def _json_texts(text: str) -> str:
    """The strings of the JSON a text holds (a whole text that is JSON, or a line such as a run's
    ``Status: {…}``), one a line: a JSON escape (``\\n``, ``\\u0077``) does not hide a value from the index."""
    out: list[str] = []
    stripped = text.strip()
    candidates = [stripped] if stripped[:1] in ("{", "[") else []
    for line in text.split("\n"):
        if line.startswith("Status: {"):
            candidates.append(line[len("Status: "):])
        elif line[:1] in ("{", "[") and line != stripped:
            candidates.append(line)
    for candidate in candidates:
        try:
            out += strings_of(json.loads(candidate))
        except (ValueError, RecursionError):
            continue
    return "\n".join(out)


def shown_texts(call: ToolCall) -> list[str]:
    """Every text of one tool call frame the agent could read: the row's text, the content blocks' other texts,
    the strings of its ``rawOutput`` (walked, never a JSON dump) and of any JSON its text holds, and the strings of
    the frame's other fields (an adapter's ``_meta`` may carry the tool's whole response); in a fixed order, empty
    where a frame has none."""
    raw = call.raw_output
    return [call.text, call.shown, raw if isinstance(raw, str) else "\n".join(strings_of(raw)), _json_texts(call.text),
            _json_texts(raw) if isinstance(raw, str) else "", "\n".join(strings_of(call.details, keys=False))]


def _reports_output(call: ToolCall) -> bool:
    """Does a ``run`` answer carry what the run printed (the structured answer's streams, or the text's sections)?"""
    raw = call.raw_output
    if isinstance(raw, dict) and ("stdout" in raw or "stderr" in raw):
        return True
    return "--- output ---" in call.text or "--- errors ---" in call.text


def _unread_noun(kind: str) -> str:
    major = kind.split("/", 1)[0]
    return {"image": "an image", "audio": "a recording"}.get(major, f"a file ({kind})")


def _request_id(call: ToolCall) -> str | None:
    raw = call.raw_output
    if isinstance(raw, dict) and isinstance(raw.get("request_id"), str):
        return raw["request_id"]
    for line in call.text.splitlines()[:3]:
        if line.startswith("request id: "):
            return line[len("request id: "):].strip() or None
    return None


def run_reads(facts: Mapping[str, Any] | None) -> list[str]:
    """What a run read, in words: every call of every read effect (not the first few), each page once."""
    out: list[str] = []
    effects = facts.get("effects") if isinstance(facts, Mapping) else None
    for eff in effects if isinstance(effects, list) else []:
        if not isinstance(eff, Mapping):
            continue
        for call in eff.get("calls") or []:
            if not isinstance(call, Mapping):
                continue
            args = {p: a["value"] for p, a in (call.get("args") or {}).items() if isinstance(a, Mapping) and "value" in a}
            if isinstance(eff.get("reads"), str) and eff["reads"]:
                labels = [reads_label(eff["reads"], args)]
            else:  # no template: the authority's words for an effect whose name says it reads
                labels = read_labels({"effects": [{**eff, "calls": [call]}]})
            out += [label for label in labels if label not in out]
    return out


class ConversationProvenance:
    """One conversation's :class:`TranscriptIndex` and the names of its sources."""

    def __init__(self, attachment_text: AttachmentText | None = None) -> None:
        self.index = TranscriptIndex()
        self._attachment_text = attachment_text
        # Keyed by (turn, tool call id): an agent started again (a resume) may reuse its ids, and a reused id
        # must not make a new turn's result look indexed already (it would then be no source at all).
        self._turn = 0
        self._tools: dict[tuple[int, str], tuple[str | None, str | None]] = {}  # → (tool, title)
        self._runs: dict[str, int] = {}  # request id (or call key) → run number in this conversation
        self._call_runs: dict[tuple[int, str], int] = {}  # a run call → its run number
        self._count = 0  # runs numbered so far
        self._reported: set[str] = set()  # request ids whose output the agent's frames carried
        self._unreported: dict[str, str] = {}  # request id → the opaque source its output stands for meanwhile
        self._labels: dict[int, str] = {}  # run number → its source in words (:meth:`_run_name`)
        self._indexed: dict[tuple[int, str], set[int]] = {}  # the hashes of the texts indexed per call
        self._last: dict[tuple[tuple[int, str], int], str] = {}  # per call and piece: the text indexed last

    def observe(self, frame: Mapping[str, Any], approvals: Mapping[str, Mapping[str, Any]],
                at: float | None = None, *, live: bool = True) -> None:
        """Index one retained frame; ``approvals`` are the conversation's approval records (what a run read).
        ``at`` is when it arrived (now, for a live frame; unknown for a stored one without a time). A frame that
        cannot be indexed (a bug here) must neither lose the frame (the caller stores it next) nor let a value
        it showed pass as new: the index then says any value may come from it."""
        try:
            self._observe(frame, approvals, at, live=live)
        except Exception:
            log.exception("a frame could not be indexed for provenance")
            self.index.add_opaque("a tool result clauz3 could not index")

    def _observe(self, frame: Mapping[str, Any], approvals: Mapping[str, Mapping[str, Any]],
                 at: float | None, *, live: bool) -> None:
        when = at if at is not None else time.time() if live else None
        params = frame.get("params")
        if frame.get("method") == "clauz3/user":
            self._turn += 1
            if isinstance(params, dict):
                self._user(params, when)
            return
        if frame.get("method") == "clauz3/agent" and isinstance(params, dict) and params.get("kind") == "other":
            self._other(params, when)
            return
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
        pieces = shown_texts(message)
        for kind in message.unread:  # an image or a document the agent may read, but clauz3 cannot
            self.index.add_opaque(f"{_unread_noun(kind)} in the result of the tool “{title or 'tool'}”, "
                                  "which clauz3 cannot read")
        if not any(pieces):
            return
        # What makes the conversation one that has read data (containment: a made-up value is then the person's
        # call): a result from outside — not the agent's own run call before it ended, nor the trusted listings.
        outside = tool not in CLAUZ3_TOOLS and (tool != "run" or message.status in ("completed", "failed"))
        if tool == "run":
            label = self._run_label(key, message, approvals, when)
        elif tool == "status":
            self._status_records(message.raw_output, when)
            label = f"the clauz3 status answer{_at(when)}"
        elif tool in CLAUZ3_TOOLS:
            label = f"{CLAUZ3_TOOLS[tool]}{_at(when)}"
        else:
            label = f"the result of the tool “{title or 'tool'}”{_at(when)}"
        for at_piece, text in enumerate(pieces):
            if text:
                self._add(key, at_piece, text, label, outside=outside)

    def _other(self, params: Mapping[str, Any], when: float | None) -> None:
        """An update the host does not parse: a tool call it could not read (no ``toolCallId``: ACP-11) or a kind
        ACP added later may carry what a tool showed the agent, so its strings are read data. The kinds that are
        the agent's own words or the session's settings are not."""
        kind = params.get("type")
        if not isinstance(kind, str) or kind in AGENT_WORDS:
            return
        text = "\n".join(other_update_strings(params.get("body")))
        if text:
            self._add((self._turn, f"other:{kind}"), 0, text, f"an update the agent reported ({kind}){_at(when)}")

    def _add(self, key: tuple[int, str], piece: int, text: str, label: str, *, outside: bool = True) -> None:
        """Index one text of a call once; a text that extends the one indexed last is indexed from a little before
        where that one ended (:data:`OVERLAP`), so a streamed result costs its length, not its length squared."""
        seen = self._indexed.setdefault(key, set())
        digest = hash(text)
        if digest in seen:
            return
        seen.add(digest)
        last = self._last.get((key, piece))
        self._last[(key, piece)] = text
        if last and len(last) > OVERLAP and text.startswith(last):
            cut = text.rfind("\n", 0, len(last) - OVERLAP) + 1  # from a line start: no token spans a line
            text = text[cut:]
        self.index.add("read", text, label, outside=outside)

    def _user(self, params: Mapping[str, Any], when: float | None) -> None:
        """The person's message, and the files they attached: the agent read those (ATT-5 sends their text), and
        a forwarded mail is a third party's words, so an attachment is read data, named by its file name."""
        text = params.get("text")
        if isinstance(text, str):
            self.index.add("you", text, "your message")
        attachments = params.get("attachments")
        for meta in attachments if isinstance(attachments, list) else []:
            if not isinstance(meta, Mapping):
                continue
            name = str(meta.get("name") or "attachment")
            ident = meta.get("id")
            body = self._attachment_text(ident) if self._attachment_text and isinstance(ident, str) and \
                meta.get("kind") == "text" else None
            if body is not None:  # an empty file shows nothing
                self.index.add("read", body, f"the attached file {name}{_at(when)}")
            elif meta.get("kind") == "image":
                self.index.add_opaque(f"the image {name} you attached, which clauz3 cannot read")
            else:
                self.index.add_opaque(f"the attached file {name}, whose text clauz3 no longer has")

    def _run_label(self, key: tuple[int, str], message: ToolCall, approvals: Mapping[str, Mapping[str, Any]],
                   when: float | None) -> str:
        """A run call's source. Its number comes from its request id once a frame names it (the record the bridge
        pushed may have numbered the run already); a frame before that with a result is numbered by its call."""
        request_id = _request_id(message)
        number = self._call_runs.get(key)
        if request_id:
            number = self._runs.get(request_id) or number or self._number(request_id)
            self._runs[request_id] = self._call_runs[key] = number
        elif number is None and (message.text or message.shown or message.raw_output is not None):
            number = self._call_runs[key] = self._number(f"{key[0]}:{key[1]}")
        if number is None:
            return f"a clauz3 run call{_at(when)}"  # only the frame's own fields yet (its adapter's metadata)
        if request_id and _reports_output(message):
            self._reported.add(request_id)
            if request_id in self._unreported:
                self.index.drop_opaque(self._unreported.pop(request_id))
        record = approvals.get(request_id or "") or {}
        return self._run_name(number, record.get("effects") if isinstance(record, Mapping) else None, when)

    def _number(self, run: str) -> int:
        """A new run number for ``run`` (a request id, or a call's key), or the one it has."""
        if run not in self._runs:
            self._count += 1
            self._runs[run] = self._count
        return self._runs[run]

    def _run_name(self, number: int, facts: Any, when: float | None) -> str:
        """One run's source in words, the same whichever way its texts arrive (its record pushed to the host, the
        agent's report of its ``run`` answer), so they name it once: what its program read once that is known."""
        reads = run_reads(facts if isinstance(facts, Mapping) else None)
        if reads:
            self._labels[number] = f"{prose_join(reads)}, read in run {number}{_at(when)}"
        return self._labels.setdefault(number, f"the output of run {number}{_at(when)}")

    def run_record_of(self, to_json: Callable[[], Mapping[str, Any]], approvals: Mapping[str, Mapping[str, Any]],
                      at: float | None = None) -> None:
        """:meth:`run_record` of a record read by ``to_json``; a record that cannot be read leaves no value new."""
        try:
            doc = to_json()
        except Exception:  # never lose the record over the index; nothing is called new instead
            log.exception("a run record could not be read for provenance")
            self.index.add_opaque("a run record clauz3 could not index")
            return
        self.run_record(doc, approvals, at=at)

    def run_record(self, record: Mapping[str, Any], approvals: Mapping[str, Mapping[str, Any]],
                   at: float | None = None) -> None:
        """A run record as the bridge pushed it to the host (DEC-5): the agent gets the same record from its ``run``
        or ``status`` call, whether or not its agent reports that answer to the host, so what the record says (its
        message, its summary, its obligation) is read data as it arrives."""
        request_id = record.get("request_id")
        if not isinstance(request_id, str):
            return
        key = (-1, request_id)
        try:
            number = self._number(request_id)
            label = self._run_name(number, (approvals.get(request_id) or {}).get("effects"),
                                   at if at is not None else time.time())
            self._add(key, 0, "\n".join(strings_of(dict(record))), label, outside=bool(record.get("ended_at")))
            # What the run printed reaches the agent in its ``run`` answer only, never in this record: until the
            # agent's adapter passes that answer on, nothing may be called new (it may come from the output).
            out = record.get("output")
            printed = isinstance(out, Mapping) and any(
                isinstance(out.get(k), int) and out[k] > 0 for k in ("stdout_bytes", "stderr_bytes"))
            if printed and record.get("ended_at") and request_id not in self._reported:
                self._unreported[request_id] = (f"what run {number} printed, which the agent's adapter has not "
                                                "passed on to clauz3")
                self.index.add_opaque(self._unreported[request_id])
        except Exception:
            log.exception("a run record could not be indexed for provenance")
            self.index.add_opaque("a run record clauz3 could not index")

    def _status_records(self, raw: Any, when: float | None) -> None:
        """Each run record a ``status`` answer holds, named by its run: the agent may learn a run's outcome only
        there (its ``run`` call gave up first). A record polled again unchanged is indexed once."""
        records = raw.get("runs") if isinstance(raw, Mapping) else None
        for record in records if isinstance(records, list) else []:
            if not isinstance(record, Mapping):
                continue
            request_id = str(record.get("request_id"))
            number = self._runs.get(request_id)
            named = f"run {number}" if number is not None else "a run"
            text = "\n".join(strings_of(dict(record)))
            if text:
                self._add((-2, request_id), 0, text, f"the record of {named}, shown by the status tool{_at(when)}")

    def rebuild(self, history: list[dict[str, Any]]) -> None:
        """Index a stored transcript (a conversation opened again); earlier approval records are gone,
        so a run's source is named by its number only."""
        for frame in history:
            self.observe(frame, {}, at=_frame_time(frame), live=False)


def _frame_time(frame: Mapping[str, Any]) -> float | None:
    at = frame.get("ts") if isinstance(frame, Mapping) else None
    return float(at) if isinstance(at, int | float) and not isinstance(at, bool) else None
