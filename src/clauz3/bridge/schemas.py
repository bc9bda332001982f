"""The six tools' declarations (03 MCP-1, MCP-2, the tool table) and strict argument checking.

The SDK only checks the ``tools/call`` envelope, so the bridge validates arguments itself: any
missing, mistyped, out-of-range or unknown argument yields ``invalid arguments: <detail>`` before
anything else happens (no side effects).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from clauz3.bridge.errors import BridgeError
from clauz3.runs.records import Phase

MAX_SOURCE_BYTES = 262_144  # 00 DEC-9: UTF-8 bytes
MAX_QUERY = 200
MAX_SKILL_ID = 200
REQUEST_ID_RE = re.compile(r"^[A-Za-z0-9_-]{8,64}$")  # 03 IDM-1 / approvals REQ pattern


class ArgumentError(BridgeError, ValueError):
    """One-line detail for ``invalid arguments: <detail>``."""


_NULLABLE_STR = {"type": ["string", "null"]}
_NULLABLE_INT = {"type": ["integer", "null"]}

RECORD_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "request_id": {"type": "string"},
        "run_id": {"type": "string"},
        "conversation_id": _NULLABLE_STR,
        "attempt": {"type": "integer"},
        "phase": {"type": "string", "enum": [phase.value for phase in Phase]},
        "reason": _NULLABLE_STR,
        "message": _NULLABLE_STR,
        "exit_code": _NULLABLE_INT,
        "recorded": {"type": "boolean"},
        "source_sha256": {"type": "string"},
        "source_name": {"type": "string"},
        "target": {"type": "string"},
        "started_at": _NULLABLE_STR,
        "updated_at": _NULLABLE_STR,
        "ended_at": _NULLABLE_STR,
        "elapsed_seconds": {"type": "number"},
        "proof_timeout_seconds": {"type": "number"},
        "execution_timeout_seconds": {"type": "number"},
        "approval": {"type": ["object", "null"]},
        "sandbox": _NULLABLE_STR,
        "sandbox_detail": _NULLABLE_STR,
        "obligation": {"type": ["object", "null"]},
        "effects_count": {"type": "integer"},
        "executed_partially": {"type": "boolean"},
        # Issue 10 family 8: why a run ended before its program returned, and per end-state guarantee
        # whether it held on the state reached (true / false / null: cannot be told).
        "ended_early": _NULLABLE_STR,
        "end_state": {"type": "array", "items": {"type": "object", "properties": {
            "guarantee": {"type": "string"}, "held": {"type": ["boolean", "null"]}}}},
        "output": {"type": "object"},
    },
    "required": ["request_id", "run_id", "phase", "reason", "exit_code"],
}

_RUN_OUTPUT = {
    "type": "object",
    "properties": {**RECORD_SCHEMA["properties"], "stdout": {"type": "string"}, "stderr": {"type": "string"}},
    "required": [*RECORD_SCHEMA["required"], "stdout", "stderr"],
}

_ENTRY = {
    "type": "object",
    "properties": {
        "domain": {"type": "string"}, "module": {"type": "string"},
        "kind": {"type": "string", "enum": ["effect", "contract", "row"]}, "name": {"type": "string"},
        "signature": {"type": "string"}, "summary": {"type": "string"}, "import": {"type": "string"},
    },
    "required": ["domain", "module", "kind", "name", "signature", "summary", "import"],
}

_LIBRARY = {
    "type": "object",
    "properties": {
        "domain": {"type": "string"}, "title": {"type": "string"}, "summary": {"type": "string"},
        "installed": {"type": "boolean"}, "source": {"type": "string"}, "install_command": {"type": "string"},
    },
    "required": ["domain", "title", "summary", "installed", "source", "install_command"],
}

_QUERY = {"type": "string", "maxLength": MAX_QUERY, "default": "",
          "description": "case-insensitive substring; every space-separated term must match"}


@dataclass(frozen=True)
class ToolSpec:
    name: str
    title: str
    description: str
    input_schema: dict[str, Any]
    output_schema: dict[str, Any]


TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec(
        "run", "Run a proved program",
        "Submit a clauz3 Python program. It is checked, every guarantee is proved with Z3, a person (or "
        "policy) approves it, and only then does it execute. Returns the outcome, the program's output and a "
        "final `Status:` line. Read builtin:clauz3-authoring (read_skill) before writing programs.",
        {"type": "object", "properties": {
            "source": {"type": "string", "minLength": 1, "maxLength": MAX_SOURCE_BYTES,
                       "description": "the whole program (UTF-8, at most 262144 bytes)"},
            "request_id": {"type": "string", "pattern": REQUEST_ID_RE.pattern,
                           "description": "idempotency key: the same id and program return the recorded outcome"},
            "timeout_seconds": {"type": "integer", "minimum": 1, "maximum": 300, "default": 60,
                                "description": "execution time limit in seconds"},
        }, "required": ["source"], "additionalProperties": False},
        _RUN_OUTPUT,
    ),
    ToolSpec(
        "status", "Run status",
        "Report this conversation's runs, newest first, or one run by request_id. Only the "
        "awaiting_approval phase means a person is deciding.",
        {"type": "object", "properties": {
            "request_id": {"type": "string", "maxLength": 64, "description": "one run's request id"},
        }, "additionalProperties": False},
        {"type": "object", "properties": {"runs": {"type": "array", "items": RECORD_SCHEMA, "maxItems": 50}},
         "required": ["runs"]},
    ),
    ToolSpec(
        "tools", "Installed effects and contracts",
        "List the effects (trusted functions) and contract helpers of this conversation's libraries, read from "
        "their source. view=api shows signatures and summaries; view=source shows the definitions.",
        {"type": "object", "properties": {
            "query": _QUERY,
            "view": {"type": "string", "enum": ["api", "source"], "default": "api"},
        }, "additionalProperties": False},
        {"type": "object", "properties": {"view": {"type": "string"}, "entries": {"type": "array", "items": _ENTRY}},
         "required": ["view", "entries"]},
    ),
    ToolSpec(
        "libraries", "Library catalogue (read-only)",
        "Browse the libraries known to this project. Read-only: it never installs anything; it shows the "
        "command a user can run to install a library.",
        {"type": "object", "properties": {"query": _QUERY}, "additionalProperties": False},
        {"type": "object", "properties": {"libraries": {"type": "array", "items": _LIBRARY}},
         "required": ["libraries"]},
    ),
    ToolSpec(
        "list_skills", "List documents",
        "List the documents available to read_skill (text, not permissions). builtin:clauz3-authoring first.",
        {"type": "object", "properties": {}, "additionalProperties": False},
        {"type": "object", "properties": {"skills": {"type": "array", "items": {
            "type": "object", "properties": {"id": {"type": "string"}, "name": {"type": "string"},
                                             "preview": {"type": "string", "maxLength": 200}},
            "required": ["id", "name", "preview"]}}}, "required": ["skills"]},
    ),
    ToolSpec(
        "read_skill", "Read a document",
        "Read one document by the id list_skills shows. Ids are never paths.",
        {"type": "object", "properties": {"id": {"type": "string", "maxLength": MAX_SKILL_ID}},
         "required": ["id"], "additionalProperties": False},
        {"type": "object", "properties": {"id": {"type": "string"}, "name": {"type": "string"},
                                          "text": {"type": "string"}}, "required": ["id", "name", "text"]},
    ),
)

SPECS: dict[str, ToolSpec] = {t.name: t for t in TOOLS}


def _string(args: dict[str, Any], name: str, *, required: bool = False, default: str | None = None,
            max_chars: int | None = None) -> str | None:
    if name not in args:
        if required:
            raise ArgumentError(f"missing required argument {name!r}")
        return default
    value = args[name]
    if not isinstance(value, str):
        raise ArgumentError(f"{name!r} must be a string")
    if max_chars is not None and len(value) > max_chars:
        raise ArgumentError(f"{name!r} is longer than {max_chars} characters")
    bad = invalid_text(value)
    if bad is not None:
        raise ArgumentError(f"{name!r} is not valid text: {bad}")
    return value


def invalid_text(value: str) -> str | None:
    """Why ``value`` is not text a tool can take (issue 19), else None: a lone surrogate cannot be encoded as
    UTF-8 (it hung a ``run``: nothing downstream could write it), and a NUL ends strings in the layers below."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        return f"a lone surrogate U+{ord(value[exc.start]):04X} at character {exc.start + 1}"
    nul = value.find("\x00")
    return f"a NUL character at character {nul + 1}" if nul >= 0 else None


@dataclass(frozen=True)
class RunArgs:
    source: str
    request_id: str | None
    timeout_seconds: int


@dataclass(frozen=True)
class StatusArgs:
    request_id: str | None


@dataclass(frozen=True)
class ToolsArgs:
    query: str
    view: str  # "api" | "source"


@dataclass(frozen=True)
class LibrariesArgs:
    query: str


@dataclass(frozen=True)
class ListSkillsArgs:
    pass


@dataclass(frozen=True)
class ReadSkillArgs:
    id: str


ToolArgs = RunArgs | StatusArgs | ToolsArgs | LibrariesArgs | ListSkillsArgs | ReadSkillArgs


def validate(tool: str, arguments: dict[str, Any] | None) -> ToolArgs:
    """The typed arguments of ``tool`` or :class:`ArgumentError` (unknown tool included).

    This is the only reader of a ``tools/call`` request's raw arguments (issue 15: MCP bodies
    are parsed once, at the edge); the tools get the typed value.
    """
    spec = SPECS.get(tool)
    if spec is None:
        raise ArgumentError(f"unknown tool {tool[:60]!r}; the tools are {', '.join(SPECS)}")
    args = dict(arguments or {})
    allowed = set(spec.input_schema["properties"])
    unknown = sorted(set(args) - allowed)
    if unknown:
        raise ArgumentError(f"unknown argument {unknown[0][:60]!r} for {tool}")
    if tool == "run":
        source = _string(args, "source", required=True)
        assert source is not None
        if not source:
            raise ArgumentError("'source' must not be empty")
        if len(source.encode("utf-8", "surrogatepass")) > MAX_SOURCE_BYTES:
            raise ArgumentError(f"'source' is larger than {MAX_SOURCE_BYTES} bytes")
        request_id = _string(args, "request_id")
        if request_id is not None and not REQUEST_ID_RE.match(request_id):
            raise ArgumentError("'request_id' must be 8–64 characters of [A-Za-z0-9_-]")
        timeout = args.get("timeout_seconds", 60)
        if isinstance(timeout, float) and timeout.is_integer():
            timeout = int(timeout)
        if isinstance(timeout, bool) or not isinstance(timeout, int):
            raise ArgumentError("'timeout_seconds' must be an integer")
        if not 1 <= timeout <= 300:
            raise ArgumentError("'timeout_seconds' must be between 1 and 300")
        return RunArgs(source, request_id, timeout)
    if tool == "status":
        return StatusArgs(_string(args, "request_id", max_chars=64))
    if tool == "tools":
        view = _string(args, "view", default="api")
        if view not in ("api", "source"):
            raise ArgumentError("'view' must be \"api\" or \"source\"")
        return ToolsArgs(_string(args, "query", default="", max_chars=MAX_QUERY) or "", view)
    if tool == "libraries":
        return LibrariesArgs(_string(args, "query", default="", max_chars=MAX_QUERY) or "")
    if tool == "read_skill":
        skill_id = _string(args, "id", required=True, max_chars=MAX_SKILL_ID)
        assert skill_id is not None
        return ReadSkillArgs(skill_id)
    return ListSkillsArgs()
