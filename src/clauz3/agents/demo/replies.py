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
        return refusal(reason, message)
    if phase == "cancelled":
        if record.get("executed_partially") is True:
            return ("The run was stopped after it had started executing: effects it already performed stay, "
                    "and it will not be run again.")
        return "The run was stopped before it executed."
    if phase in ("failed", "uncertain"):
        code = "" if exit_code is None else f" (exit code {exit_code})"
        head = ("The run stopped before it finished" if phase == "failed"
                else "I can't tell whether the run finished")
        detail = f" {plain_message(message)}" if message else ""
        return f"{head}{code}. {REASON_WORDS.get(reason or '', '')}{detail}".replace("  ", " ").strip()
    return f"The run is still {phase.replace('_', ' ')}; I have no final result to report yet."


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


# Issue 22: the person reads these replies, so a refusal is a sentence with what to do next; the run
# record's reason codes and the prover's `file:line:col: code:` lines never reach them as such.
REASON_WORDS: dict[str, str] = {
    "structural": "Correct the program and send it again.",
    "import_not_allowed": "It imports a module clauz3 doesn't allow; a library has to do that instead.",
    "libraries_changed": "The libraries changed after I wrote it; choose in the conversation whether to continue.",
    "config": "clauz3's settings stopped it before it started.",
    "no_libraries": "This conversation has no libraries; add one with + Libraries, then ask again.",
    "run_active": "Another run was still going; wait for it or press Stop, then ask again.",
    "idempotency_conflict": "I reused a request name for a different program; ask again and I'll submit it anew.",
    "sandbox_unavailable": "The sandbox clauz3 runs programs in isn't available on this computer.",
    "proof_deadline": "The proof took too long; ask for a simpler program.",
    "approval_expired": "Nobody decided before the approval expired; ask again to get a new card.",
    "service_error": "clauz3's approval service couldn't be reached; try again in a moment.",
    "sandbox_failed": "The sandbox failed to start the program.",
    "runtime_error": "The program raised an error while it ran.",
    "trusted_contract_violation": "A library broke its own promise, so clauz3 stopped the run.",
    "soundness_violation": "A checked value broke a proved guarantee, so clauz3 stopped the run.",
    "execution_timeout": "It ran longer than its time limit.",
}
_DIAGNOSTIC = re.compile(r"(?:error|warning|note): (.+?):(\d+):(\d+): [\w-]+: (.*?)(?: \(hint: (.*)\))?")


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return ""
    return text[0].upper() + text[1:] + ("" if text[-1] in ".!?" else ".")


def plain_diagnostic(line: str) -> str:
    """``error: program.py:2:10: syntax-error: '(' was never closed (hint: fix …)`` as a sentence."""
    m = _DIAGNOSTIC.fullmatch(line.strip())
    if m is None:
        return _sentence(line)
    file = m.group(1).rsplit("/", 1)[-1]
    hint = f" {_sentence(m.group(5))}" if m.group(5) else ""
    return f"{file}, line {m.group(2)}, column {m.group(3)}: {_sentence(m.group(4))}{hint}"


def plain_message(message: str | None) -> str:
    lines = [ln for ln in (message or "").splitlines() if ln.strip() and not ln.startswith("note: ")]
    return " ".join(plain_diagnostic(ln) for ln in lines[:3])


def refusal(reason: str | None, message: str | None) -> str:
    """A run refused before it ran, for the person: what went wrong, where, and what happens next."""
    detail = plain_message(message)
    words = REASON_WORDS.get(reason or "", "")
    if reason in ("structural", "import_not_allowed"):
        return f"clauz3 couldn't check the program, so nothing ran. {detail} {words}".replace("  ", " ").strip()
    return f"It was refused before running, so nothing ran. {words} {detail}".replace("  ", " ").strip()
