"""What the demo understands: prompt text → one intent (04 §12.2). Pure, no I/O.

The first matching row of the spec's table wins, so the order of the checks below is the
order of that table. A bad argument becomes :class:`BadArgument` carrying the rule in words.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from .paths import PathRuleError, canonical_path

ADDRESS_RE = r"[^@\s\"']+@[^@\s\"']+\.[^@\s\"']+"
ADDRESS_RULE = (
    "An email address looks like name@example.com (one @, a dot in the domain, no spaces or quotes, "
    "at most 254 characters). Nothing ran."
)
MESSAGE_RULE = "Put the message in quotes, 1–1,000 characters, for example \"Hi from clauz3\". Nothing ran."
COUNT_RULE = "I can count to a number from 1 to 10,000 (or 1 to 1,000 slowly). Nothing ran."
MAX_COUNT = 10_000
MAX_SLOW_COUNT = 1_000


@dataclass(frozen=True)
class Help:
    pass


@dataclass(frozen=True)
class ToolQuery:
    """A call of one of the five read-only tools; ``arguments`` are passed as given."""

    tool: str
    arguments: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Email:
    address: str
    message: str
    only: tuple[str, ...]
    guarantee_unique: bool = True


@dataclass(frozen=True)
class ListDir:
    directory: str


@dataclass(frozen=True)
class ReadFile:
    path: str


@dataclass(frozen=True)
class CountLines:
    path: str


@dataclass(frozen=True)
class WriteSummary:
    """The `Write a summary` starter: first line of notes/meeting.md into output/summary.txt."""


@dataclass(frozen=True)
class WriteFile:
    text: str
    path: str


@dataclass(frozen=True)
class AppendFile:
    text: str
    path: str


@dataclass(frozen=True)
class AppendTwoFiles:
    """One run appending the same line to two files: the smallest run Undo must restore twice (05 FS-6)."""

    text: str
    paths: tuple[str, str]


@dataclass(frozen=True)
class Count:
    n: int
    slowly: bool


@dataclass(frozen=True)
class SubmitProgram:
    """`Run this program:` then one fenced Python block: the source goes to `run` verbatim, so a test or
    a demo can submit any program (a refuted guarantee, a slow effect) without a new template."""

    source: str
    request_id: str | None = None  # `as request ID`: the run tool's idempotency key, to show a retry


@dataclass(frozen=True)
class ReplyToInbox:
    """The provenance starter (issue 20): read the mock inbox in one run, then reply to the address the
    email came from in a second run, so the second card shows that the address came from read data."""

    message: str


@dataclass(frozen=True)
class NativeTool:
    pass


@dataclass(frozen=True)
class BadArgument:
    explanation: str


@dataclass(frozen=True)
class Fallback:
    pass


Intent = (
    Help | ToolQuery | Email | ListDir | ReadFile | CountLines | WriteSummary | WriteFile | AppendFile
    | AppendTwoFiles | Count | SubmitProgram | ReplyToInbox | NativeTool | BadArgument | Fallback
)
TEMPLATE_INTENTS = (Email, ListDir, ReadFile, CountLines, WriteSummary, WriteFile, AppendFile, AppendTwoFiles)


@dataclass(frozen=True)
class Parsed:
    intent: Intent
    host_note: bool  # a leading `[clauz3]` block was present: refresh the tools listing


# The tutorial starters of 05 TUT-12 and TUT-14, as composer text.
STARTERS: dict[str, Intent] = {
    'Use the mock email library to send bob@example.com the message "Hi from clauz3". Guarantee that only '
    "bob@example.com can receive email, that at most one email is sent, and that no address gets two. "
    "Submit it for approval.": Email("bob@example.com", "Hi from clauz3", ("bob@example.com",)),
    'Prepare a mock email to carol@example.com saying "Lunch at noon?". Guarantee that only carol@example.com '
    "can receive it and that at most one email is sent. Submit it for approval; I intend to reject it.": Email(
        "carol@example.com", "Lunch at noon?", ("carol@example.com",), guarantee_unique=False
    ),
    'Send bob@example.com another mock email saying "Second note", with the same guarantees: only '
    "bob@example.com, at most one email, no address twice. Submit it for approval so I can choose Approve "
    "and remember.": Email("bob@example.com", "Second note", ("bob@example.com",)),
    "Count the lines of notes/groceries.txt with the filesystem library. Guarantee the program is read-only "
    "and reads only files under notes/. Submit it for approval.": CountLines("notes/groceries.txt"),
    "Read notes/meeting.md and write its first line to output/summary.txt. Guarantee that reads stay under "
    "notes/, writes stay under output/, and there is at most one write. Submit it for approval.": WriteSummary(),
    'Append the line "milk" to notes/groceries.txt. Guarantee at most one write, only to '
    "notes/groceries.txt, and no deletions. Submit it for approval; afterwards I will undo it.": AppendFile(
        "milk", "notes/groceries.txt"
    ),
    'Read the newest email in my mock inbox, then reply to its sender saying "Thanks, got it". Guarantee that '
    "only that sender can receive the reply and that at most one email is sent. Submit each step for "
    "approval.": ReplyToInbox("Thanks, got it"),
}

# `{{output:KEY}}` in a submitted program: the value after `KEY:` on a line the last run printed. It
# stands for an agent copying what it read into its next program (issue 20's provenance tests).
OUTPUT_PLACEHOLDER = re.compile(r"\{\{output:([A-Za-z0-9 _-]{1,40})\}\}")


def fill_from_output(source: str, stdout: str) -> str | None:
    """``source`` with every placeholder replaced by a Python literal of its value; None if one is missing."""
    values: dict[str, str] = {}
    for line in stdout.splitlines():
        key, sep, value = line.partition(":")
        if sep and key.strip() and key.strip() not in values:
            values[key.strip()] = value.strip()
    missing = False

    def replace(m: re.Match[str]) -> str:
        nonlocal missing
        value = values.get(m.group(1).strip())
        if value is None:
            missing = True
            return m.group(0)
        return repr(value)

    filled = OUTPUT_PLACEHOLDER.sub(replace, source)
    return None if missing else filled

# Phrases matched on the prompt as typed (before whitespace is collapsed): (pattern, intent builder).
# Add a row here for a phrase whose argument is multi-line text.
_PROGRAM = re.compile(r"run this program(?: as request ([A-Za-z0-9_-]{8,64}))?:?\s*```(?:python|py)?[ \t]*\n"
                      r"(.*\n)```", re.IGNORECASE | re.DOTALL)
RAW_PHRASES: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], Intent]], ...] = (
    (_PROGRAM, lambda m: SubmitProgram(m.group(2), m.group(1))),
)

_QUOTES = str.maketrans({"\u201c": '"', "\u201d": '"', "\u2018": "'", "\u2019": "'"})


def strip_note(text: str) -> tuple[str, bool]:
    """Drop a leading `[clauz3]` host-note block; say whether there was one."""
    lines = text.split("\n")
    host_note = False
    if lines and lines[0].startswith("[clauz3]"):
        host_note = True
        while lines and lines[0].strip():
            lines.pop(0)
    return "\n".join(lines), host_note


def normalize(text: str) -> tuple[str, bool]:
    """Strip a leading host-note block, map curly quotes, collapse whitespace (case is kept)."""
    body, host_note = strip_note(text.translate(_QUOTES))
    return " ".join(body.split()), host_note


_STARTER_KEYS = {normalize(k)[0].lower(): v for k, v in STARTERS.items()}


def parse(text: str) -> Parsed:
    body, host_note = strip_note(text)
    for pattern, build in RAW_PHRASES:
        m = pattern.fullmatch(body.strip())
        if m is not None:
            return Parsed(build(m), host_note)
    normalized, host_note = normalize(text)
    return Parsed(_match(normalized), host_note)


# Issue 22: what people actually type around a command — "please", a closing full stop or question
# mark, the backticks of the help list's code spans — is not part of it.
_POLITE = re.compile(r"^(?:please|can you|could you|would you|kindly)[\s,]+", re.IGNORECASE)
_TRAILING = re.compile(r"(?:[\s,]+please)?(?:(?<=[\w\"'\])/])[.!?]+)?\s*$", re.IGNORECASE)


def command_core(text: str) -> str:
    """``text`` without surrounding backticks, a leading "please" and trailing punctuation."""
    core = text.strip()
    if len(core) > 2 and core[0] == core[-1] == "`":
        core = core.strip("`").strip()
    core = _POLITE.sub("", core)
    return _TRAILING.sub("", core)


def _match(text: str) -> Intent:
    text = text.strip()
    if len(text) > 2 and text[0] == text[-1] == "`":  # an example copied with its code span's backticks
        text = text.strip("`").strip()
    lower = text.lower()
    starter = _STARTER_KEYS.get(lower)
    if starter is not None:
        return starter
    email = _email(text)
    if email is not None:
        return email
    text = command_core(text)
    lower = text.lower()
    if lower in ("help", "what can you do?", "what can you do", "what can you do for me", "show help"):
        return Help()
    if lower in ("show status", "status", "check runs"):
        return ToolQuery("status")
    if lower in ("show tools", "list tools"):
        return ToolQuery("tools")
    if lower in ("show libraries", "browse libraries"):
        return ToolQuery("libraries")
    if lower in ("show guides", "list guides"):
        return ToolQuery("list_skills")
    if m := re.fullmatch(r"read guide (\S{1,200})", text, re.IGNORECASE):
        return ToolQuery("read_skill", {"id": m.group(1)})
    for matcher in (_list_dir, _count_lines, _read_file, _append_two, _write_or_append, _count):
        intent = matcher(text)
        if intent is not None:
            return intent
    if lower == "try a native tool":
        return NativeTool()
    return Fallback()


def _unquote(text: str) -> str | None:
    """The inside of a fully quoted string, else None."""
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        inner = text[1:-1]
        if text[0] not in inner:
            return inner
    return None


def _address(text: str) -> str | None:
    if len(text) <= 254 and re.fullmatch(ADDRESS_RE, text):
        return text
    return None


_SEND = re.compile(r"(?:(?:please|can you|could you)[\s,]+)?(?:use the (?:mock )?email library to\s+)?"
                   r"(?:send|e-?mail|mail|write|prepare|draft)\b", re.IGNORECASE)
_CANDIDATE = re.compile(r"[^\s,;:<>()\"'`]*@[^\s,;:<>()\"'`]*")
_QUOTED = (re.compile(r'"([^"]*)"'), re.compile(r"(?:^|(?<=[\s:(]))'(.*?)'(?=$|[\s.,;:!?)])"))
_SAID = re.compile(r"(?:\b(?:saying|that says|the message|with the message|message)\s*:?|(?<=\S):)\s+(.+?)"
                   r"(?:\.\s+(?=guarantee|make sure|ensure|only|submit|and\b)|\s+only to\b|$)", re.IGNORECASE | re.DOTALL)
_ONLY = re.compile(r"\bonly(?:\s+to)?\s+((?:[^\s,;]+@[^\s,;]+)(?:\s*(?:,|\band\b|\bor\b)\s*[^\s,;]+@[^\s,;]+)*)",
                   re.IGNORECASE)
_UNIQUE = re.compile(r"twice|gets two|two emails|unique|no address|no one gets|nobody gets", re.IGNORECASE)


def _addresses(text: str) -> list[str | None]:
    """Each address-like word of ``text`` in order: the address, or None when it is malformed."""
    return [_address(m.group(0).rstrip(".!?")) for m in _CANDIDATE.finditer(text)]


def _message(text: str) -> tuple[str | None, str]:
    """The message and the text around it (where addresses and guarantees are read)."""
    for pattern in _QUOTED:
        m = pattern.search(text)
        if m is not None:
            return m.group(1), text[: m.start()] + " " + text[m.end():]
    m = _SAID.search(text)
    if m is not None:
        return m.group(1).strip(), text[: m.start()] + " " + text[m.end(1):]
    return None, text


def _email(text: str) -> Intent | None:
    """A mock email, as people phrase it: `email bob@example.com "Hi"`, `send "Hi" to bob@example.com`,
    `send an email to bob@example.com saying Hi`, then any guarantees ("Guarantee only bob@example.com
    can receive it", "… only to ann@example.com, bob@example.com", "no address twice")."""
    verb = _SEND.match(text)
    if verb is None or (text[verb.end():verb.end() + 1] not in ("", " ")):
        return None
    rest = text[verb.end():].strip()
    message, around = _message(rest)
    found = _addresses(around)
    if text.lower().startswith("write") and not re.match(r"write (?:an? )?(?:mock )?e-?mail", text, re.IGNORECASE):
        return None  # `write "hello" to a file` is the filesystem's
    if not found:
        return BadArgument(ADDRESS_RULE) if re.match(r"(?:send|e-?mail|mail)\s+\S+", text, re.IGNORECASE) else None
    if not all(found):
        return BadArgument(ADDRESS_RULE)
    only_match = _ONLY.search(around)
    only: tuple[str, ...] | None = None
    if only_match is not None:
        names = [a for a in _addresses(only_match.group(1))]
        if not names or not all(names):
            return BadArgument(ADDRESS_RULE)
        only = tuple(a for a in names if a)
        around = around[: only_match.start()] + " " + around[only_match.end():]
    recipients = [a for a in _addresses(around) if a] or list(only or ())
    if message is None or not 1 <= len(message) <= 1000:
        return BadArgument(MESSAGE_RULE)
    address = recipients[0]
    asked = re.search(r"guarantee|make sure|ensure", rest, re.IGNORECASE) is not None
    unique = _UNIQUE.search(rest) is not None if asked else True
    return Email(address, message, only or (address,), guarantee_unique=unique)


def _path_argument(raw: str, *, directory: bool) -> str | BadArgument:
    text = _unquote(raw) or raw
    try:
        return canonical_path(text, directory=directory)
    except PathRuleError as exc:
        return BadArgument(str(exc))


def _list_dir(text: str) -> Intent | None:
    m = re.fullmatch(r"(?:list|show)(?: me)?(?: the| all)?(?: the)? files (?:under|in|inside) (.+)", text, re.IGNORECASE)
    if m is None:
        return None
    path = _path_argument(m.group(1), directory=True)
    return path if isinstance(path, BadArgument) else ListDir(path)


def _count_lines(text: str) -> Intent | None:
    m = re.fullmatch(r"count (?:the )?lines (?:in|of) (?:the file )?(.+)|how many lines (?:are )?(?:in|does) (.+?)(?: have)?",
                     text, re.IGNORECASE)
    if m is None:
        return None
    path = _path_argument(m.group(1) or m.group(2), directory=False)
    return path if isinstance(path, BadArgument) else CountLines(path)


def _read_file(text: str) -> Intent | None:
    m = re.fullmatch(r"(?:read|open)(?: me)?(?: the file)? (.+)", text, re.IGNORECASE)
    if m is None:
        return None
    path = _path_argument(m.group(1), directory=False)
    return path if isinstance(path, BadArgument) else ReadFile(path)


def _line_body(raw: str) -> str | BadArgument:
    """The text to write or append: quoted or bare, 1–1,000 characters."""
    body = _unquote(raw)
    if body is None:
        body = raw
    return body if 1 <= len(body) <= 1000 else BadArgument(MESSAGE_RULE)


def _write_or_append(text: str) -> Intent | None:
    m = re.fullmatch(r"(write|append the line|append) (.+) to (\S+)", text, re.IGNORECASE)
    if m is None:
        return None
    body = _line_body(m.group(2))
    if isinstance(body, BadArgument):
        return body
    path = _path_argument(m.group(3), directory=False)
    if isinstance(path, BadArgument):
        return path
    if m.group(1).lower() == "write":
        return WriteFile(body, path)
    return AppendFile(body, path)


def _append_two(text: str) -> Intent | None:
    """`append [the line] <TEXT> to <FILE> and <FILE>`; a single-file append never ends in `and <FILE>`."""
    m = re.fullmatch(r"(?:append the line|append) (.+) to (\S+) and (\S+)", text, re.IGNORECASE)
    if m is None:
        return None
    body = _line_body(m.group(1))
    if isinstance(body, BadArgument):
        return body
    first = _path_argument(m.group(2), directory=False)
    if isinstance(first, BadArgument):
        return first
    second = _path_argument(m.group(3), directory=False)
    if isinstance(second, BadArgument):
        return second
    if first == second:
        return BadArgument("Name two different files, for example notes/groceries.txt and notes/meeting.md. "
                           "Nothing ran.")
    return AppendTwoFiles(body, (first, second))


def _count(text: str) -> Intent | None:
    m = re.fullmatch(r"count to (\S+)( slowly)?", text, re.IGNORECASE)
    if m is None:
        return None
    slowly = m.group(2) is not None
    digits = m.group(1).replace(",", "")
    if not digits.isdigit():
        return BadArgument(COUNT_RULE)
    n = int(digits)
    if not 1 <= n <= (MAX_SLOW_COUNT if slowly else MAX_COUNT):
        return BadArgument(COUNT_RULE)
    return Count(n, slowly)
