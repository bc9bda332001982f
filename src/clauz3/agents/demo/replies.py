"""The demo's fixed sentences: the capability list and run outcomes (04 DEMO-6, DEMO-8). Pure.

Outcome sentences are read from the run record only, so the demo never claims an effect the
record does not show.
"""

from __future__ import annotations

import os
import re
from collections.abc import Collection
from typing import Any

HELP_HEAD = ("I'm the clauz3 demo agent — a scripted program with no language model, so I only understand "
             "these requests:")
HELP_COMMON = (
    "- any tutorial starter button",
    "- `help` — this list",
    "- `show status` — the clauz3 runs of this conversation",
    "- `show tools` — the installed library functions",
    "- `show libraries` — the library catalogue",
    "- `show guides` — the skill documents; `read guide builtin:clauz3-authoring` reads one",
    "- `count to 20` (or `count to 20 slowly`)",
    "- `try a native tool`",
    "- run this program: (or run this program as request ID:) and a fenced ```python block — submitted to "
    "clauz3 run exactly as given",
)
HELP_EMAIL = ('- `email bob@example.com "Hi"` — one mock email (end with "only to bob@example.com, ann@example.com" '
              "to name who may receive it)",)
NO_FILESYSTEM = "- file examples (list, read, write) need the filesystem library: add it with + Libraries"


def capabilities(domains: Collection[str] | None, cwd: str | None) -> str:
    """The help list for this workspace (issue 12): only examples that work here — the libraries this
    conversation has, and the files and folders that exist. Without a listing, every library's lines."""
    lines = [HELP_HEAD, *HELP_COMMON]
    if domains is None or "email" in domains:
        lines += HELP_EMAIL
    if domains is not None and "filesystem" not in domains:
        lines.append(NO_FILESYSTEM)
    else:
        lines += _file_examples(cwd)
    return "\n".join(lines)


def _file_examples(cwd: str | None) -> list[str]:
    def has(path: str, folder: bool = False) -> bool:
        if cwd is None:
            return True
        full = os.path.join(cwd, path)
        return os.path.isdir(full) if folder else os.path.isfile(full)

    out = []
    if has("notes", folder=True):
        out.append("- `list files under notes`")
    if has("notes/groceries.txt"):
        out += ["- `read notes/groceries.txt`", "- `count lines in notes/groceries.txt`"]
    if has("output", folder=True):
        out.append('- `write "hello" to output/hello.txt`')
    if has("notes/groceries.txt"):
        out.append('- `append the line "milk" to notes/groceries.txt`')
        if has("notes/meeting.md"):
            out.append('- `append the line "done" to notes/groceries.txt and notes/meeting.md` — one run changing '
                       "two files")
    if not out:
        out.append("- `list files under .` — then read, count lines of, write or append to the files it shows")
    return out


def missing_folder(folder: str) -> str:
    return (f"There is no folder `{folder}` in this workspace, and the filesystem library doesn't create "
            "folders, so I didn't submit anything. Write into a folder that exists (`list files under .` "
            "shows them), or create the folder first.")


CAPABILITIES = capabilities(None, None)
NO_BRIDGE = "This session has no clauz3 tools, so I can't submit programs; start me from `clauz3 ui`."
PERMISSION_DENIED = "The workspace didn't let me call clauz3 run, so nothing ran."
NATIVE_REFUSED = "The workspace refused my native `execute` tool, as expected: actions must use the clauz3 tools."
NATIVE_ALLOWED = "The workspace allowed a native tool, which it should not; I did not run anything anyway."
ATTACHMENT = "As a scripted demo I can't read attachments."
CANCELLED_TOOL = "Stopped before the tool answered."
SUBMITTING_GIVEN = ("Submitting your program to clauz3 run exactly as given: the prover checks every guarantee "
                    "before anyone is asked.")


def missing_library(domain: str) -> str:
    return (
        f"This conversation doesn't have the `{domain}` library selected, so I can't write that program. "
        "Add it with Libraries for this conversation, then ask again."
    )


def code_block(text: str) -> str:
    """Fence ``text`` with more backticks than any run inside it."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}\n{text.rstrip(chr(10))}\n{fence}"


def attachment_note(name: str, size: int | None) -> str:
    size_text = f"{size} bytes" if isinstance(size, int) else "unknown size"
    return f"I see the attachment {name} ({size_text}). {ATTACHMENT}"


def denied(decision: object, feedback: str | None) -> str:
    """Issue 12: each refusal says what its name says, so the person sees the agent got the right one."""
    if decision == "rejected_contract":
        return ("It wasn't approved, so nothing ran: you rejected its contract (the guarantees). I won't resubmit "
                "it with the same guarantees; tell me the limits you want instead."
                + (f" Your note: {feedback}" if feedback else ""))
    if decision == "request_more":
        return ("It wasn't approved, so nothing ran: you asked for more information first."
                + (f" Your question: {feedback}" if feedback else "")
                + " As a scripted demo I can only point to the card: the program and its proved guarantees are "
                "there in full. Ask me again when you're ready to decide.")
    if decision == "auto_rejected":
        return "It wasn't approved, so nothing ran: a rule you remembered rejects programs like this one."
    return ("It wasn't approved, so nothing ran: you rejected this program, and I won't run it."
            + (f" Feedback: {feedback}" if feedback else ""))


def plan_message(action: str, guarantees: tuple[str, ...]) -> str:
    lines = [f"I'll write a program to {action}, with these guarantees:"]
    lines += [f"- {words}" for words in guarantees]
    lines.append("Submitting it to clauz3 run: the prover checks every guarantee before anyone is asked.")
    return "\n".join(lines)


def outcome(record: dict[str, Any] | None, text: str, is_error: bool) -> str:
    """The sentence for a finished ``run`` call, from its run record (``structuredContent``)."""
    if not isinstance(record, dict) or not isinstance(record.get("phase"), str):
        first = text.strip().splitlines()[0] if text.strip() else "no details"
        return f"The clauz3 run tool answered without a run record ({first}); nothing is known to have run."
    phase = record["phase"]
    reason = record.get("reason") if isinstance(record.get("reason"), str) else None
    message = record.get("message") if isinstance(record.get("message"), str) else None
    exit_code = record.get("exit_code")
    if phase == "completed":
        stdout = record.get("stdout") if isinstance(record.get("stdout"), str) else ""
        sentence = f"Done: the program ran once after approval (exit code {exit_code if exit_code is not None else 0})."
        return sentence + ("\n" + code_block(stdout) if stdout else "")
    if phase == "refused" and reason == "proof_failed":
        return "The prover refuted a guarantee, so nothing ran: " + (message or reason)
    if phase == "refused" and reason == "denied":
        raw_approval = record.get("approval")
        approval = raw_approval if isinstance(raw_approval, dict) else {}
        feedback = approval.get("feedback") if isinstance(approval.get("feedback"), str) else None
        return denied(approval.get("decision"), feedback)
    if phase == "refused":
        return f"It was refused before running: `{reason or 'unknown'}`." + (f" {message}" if message else "")
    if phase == "cancelled":
        if record.get("executed_partially") is True:
            return ("The run was stopped after it had started executing: effects it already performed stay, "
                    "and it will not be run again.")
        return "The run was stopped before it executed."
    if phase in ("failed", "uncertain"):
        code = "-" if exit_code is None else str(exit_code)
        detail = f" {message}" if message else ""
        return f"The run ended `{phase}` (reason `{reason or 'unknown'}`, exit code {code}).{detail}"
    return f"The run is in phase `{phase}`; I have no final result to report."


NO_OUTPUT_VALUE = ("The program asks for a value from the last run's output ({{output:KEY}}), but no earlier run printed "
                   "a line `KEY: value` for it. Nothing ran.")
NO_SENDER = "The email I read names no sender address, so I did not write a reply. Nothing else ran."


def sender_of(stdout: str) -> str | None:
    """The address on the `From:` line of an email the program printed."""
    import re

    for line in stdout.splitlines():
        m = re.fullmatch(r"From:\s*(?:.*<)?([^@\s<>\"']+@[^@\s<>\"']+\.[^@\s<>\"']+?)>?\s*", line)
        if m:
            return m.group(1)
    return None
