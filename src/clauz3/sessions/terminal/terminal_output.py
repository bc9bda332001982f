"""What the terminal frontend prints (05 TRM-4): agent text to stdout, everything else to stderr.

The renderer reads the same frames the page gets (02 §4.4, §4.5) and the conversation's run
records; it never decides anything. Approval cards are summarised with the one-time link that
opens them in the Approver UI, because only the page can approve (the authority's approver
principal is the signed-in browser).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable
from typing import Any, TextIO

from clauz3.runs.records import FINAL_PHASES, Phase
from clauz3.sessions.agent.acp_messages import AgentText, AgentUpdate, ToolCall, message_of
from clauz3.sessions.conversation.runs import ConversationRun

# The terminal's words for each phase (the page's are served by the workspace, page_constants.py).
# Keyed by Phase, read with the record's phase string (a StrEnum member equals and hashes as its value).
PHASE_TEXT: dict[str, str] = {
    Phase.CHECKING: "checking the program",
    Phase.PROVING: "proving its guarantees",
    Phase.SUBMITTING_APPROVAL: "asking for approval",
    Phase.AWAITING_APPROVAL: "waiting for your approval in the Approver UI",
    Phase.EXECUTING: "running",
    Phase.COMPLETED: "completed",
    Phase.REFUSED: "refused",
    Phase.FAILED: "failed",
    Phase.CANCELLED: "stopped",
    Phase.UNCERTAIN: "outcome uncertain",
}


def _clean(text: str) -> str:
    """Terminal control sequences from an agent or a program never reach the person's terminal."""
    return "".join(c if c in "\n\t" or (ord(c) >= 32 and ord(c) != 127 and not 0x80 <= ord(c) < 0xA0) else "?"
                   for c in text)


class Renderer:
    def __init__(self, out: TextIO, err: TextIO, login_link: Callable[[], str]) -> None:
        self.out = out
        self.err = err
        self._login_link = login_link
        self._mid_line = False  # stdout has agent text without a final newline
        self._titles: dict[str, str] = {}
        self._phases: dict[str, str] = {}
        self._approvals: dict[str, str] = {}
        self.own_prompts: list[str] = []  # prompts this terminal sent (their echo is not reprinted)

    # -- low level ----------------------------------------------------------------------------

    def _write_out(self, text: str) -> None:
        with contextlib.suppress(BrokenPipeError, ValueError):
            self.out.write(text)
            self.out.flush()
        self._mid_line = not text.endswith("\n") if text else self._mid_line

    def note(self, text: str) -> None:
        """One line on stderr, starting on a fresh line even after streamed agent text."""
        if self._mid_line:
            self._write_out("\n")
        with contextlib.suppress(BrokenPipeError, ValueError):
            self.err.write(_clean(text) + "\n")
            self.err.flush()

    def prompt(self) -> None:
        if self._mid_line:
            self._write_out("\n")
        self._write_out("You> ")
        self._mid_line = False

    def end_of_turn(self) -> None:
        if self._mid_line:
            self._write_out("\n")

    # -- frames --------------------------------------------------------------------------------

    def frame(self, frame: dict[str, Any]) -> None:
        method = frame.get("method")
        raw_params = frame.get("params")
        params = raw_params if isinstance(raw_params, dict) else {}
        if (message := message_of(frame)) is not None:
            self._update(message)
        elif method == "clauz3/notice":
            self.note(f"[clauz3] {params.get('text', '')}")
        elif method == "clauz3/approval":
            record = params.get("record")
            if isinstance(record, dict):
                self._approval(record)
        elif method == "clauz3/user":
            text = str(params.get("text", ""))
            if text in self.own_prompts:
                self.own_prompts.remove(text)
            else:
                self.note(f"[from the browser] You> {text}")
        elif method == "clauz3/turn_end":
            self._turn_end(params)
        elif method == "clauz3/libraries_changed":
            self.note("[clauz3] This conversation's libraries changed; automatic approvals are paused."
                      if params.get("paused") else "[clauz3] This conversation's libraries changed.")

    def _update(self, message: AgentUpdate) -> None:
        if isinstance(message, AgentText):
            self._write_out(_clean(message.chunk))
        elif isinstance(message, ToolCall):
            call_id = message.tool_call_id
            if message.title:
                self._titles[call_id] = message.title
            name = self._titles.get(call_id, "tool")
            if not message.update:
                self.note(f"[{name}]")
            elif message.status == "failed":
                self.note(f"[{name}: failed]")

    def _turn_end(self, params: dict[str, Any]) -> None:
        reason = params.get("stop_reason")
        if reason == "cancelled":
            self.note("[turn stopped]")
        elif reason == "error":
            self.note(f"[turn ended with an error: {params.get('error') or 'unknown error'}]")
        elif reason in ("max_tokens", "max_turn_requests", "refusal"):
            self.note(f"[turn ended: {reason}]")
        else:
            self.end_of_turn()

    def _approval(self, record: dict[str, Any]) -> None:
        request_id = str(record.get("request_id", ""))
        state = str(record.get("state", ""))
        if self._approvals.get(request_id) == state:
            return
        self._approvals[request_id] = state
        if state == "pending":
            self.note(f"Approval needed for run {request_id}: " + card_summary(record))
            self.note(f"Approve or reject it in the Approver UI (keep private): {self._login_link()}")
        else:
            rule = f" by {record['rule']}" if isinstance(record.get("rule"), str) and record.get("rule") else ""
            self.note(f"[approval {request_id[:8]}: {state}{rule}]")

    # -- run records -------------------------------------------------------------------------------

    def runs(self, runs: Iterable[ConversationRun]) -> None:
        """Phase changes of this conversation's runs (pushed by the bridge, 00 DEC-5)."""
        for run in runs:
            request_id, phase = run.request_id, run.phase
            if self._phases.get(request_id) == phase:
                continue
            first = request_id not in self._phases
            self._phases[request_id] = phase
            if first and phase in FINAL_PHASES:
                continue  # an old run of the saved conversation, not news
            reason = run.record.reason
            extra = f" ({reason})" if reason and phase in (Phase.REFUSED, Phase.FAILED) else ""
            self.note(f"[run {request_id[:8]}: {PHASE_TEXT.get(phase, phase)}{extra}]")

    def seen_runs(self, runs: Iterable[ConversationRun]) -> None:
        """Remember the saved runs' phases so reopening does not announce them."""
        for run in runs:
            self._phases[run.request_id] = run.phase


def card_summary(record: dict[str, Any]) -> str:
    """The approval card in a few words: the library guarantees the person is asked to accept."""
    raw_presentation = record.get("presentation")
    presentation = raw_presentation if isinstance(raw_presentation, dict) else {}
    raw_contracts = presentation.get("contracts")
    contracts = raw_contracts if isinstance(raw_contracts, list) else []
    items = []
    for entry in contracts:
        if not isinstance(entry, dict):
            continue
        description = entry.get("description")
        expression = entry.get("expression")
        if isinstance(description, str) and description:
            items.append(f"{description} ({expression})" if isinstance(expression, str) else description)
        elif isinstance(expression, str):
            items.append(expression)
    raw_program = presentation.get("program")
    program = raw_program if isinstance(raw_program, dict) else {}
    head = f"a program of {program['lines']} lines" if isinstance(program.get("lines"), int) else "a program"
    if not items:
        return f"{head} with no stated guarantees"
    return f"{head} that guarantees: " + "; ".join(items)
