"""The page's commands (02 §4.3), validated once at the socket into typed requests.

:func:`parse_request` is the only reader of a command's raw ``params``; the host's handlers get
the dataclasses below. A malformed command raises :class:`BadRequest` carrying the notice code
the host answers with (``bad_frame`` for wrong shapes; ``not_found`` for an id that cannot name a
conversation, as WS-8 and STORE-13 say); an unknown method returns None.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from clauz3.sessions.errors import SessionError
from clauz3.sessions.store.store import is_conversation_id

MAX_TITLE = 120


class BadRequest(SessionError):
    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


@dataclass(frozen=True)
class Prompt:
    conversation_id: str
    prompt: str


@dataclass(frozen=True)
class Cancel:
    pass


@dataclass(frozen=True)
class New:
    agent: str | None  # None: the launch's agent
    domains: list[str] | None  # None: the current defaults


@dataclass(frozen=True)
class Select:
    id: str


@dataclass(frozen=True)
class Rename:
    id: str
    title: str | None  # trimmed; None when it is not 1–120 characters without control characters


@dataclass(frozen=True)
class Attach:
    conversation_id: str | None  # None never names the current conversation (stale)
    attachments: list[str]


@dataclass(frozen=True)
class Libraries:
    conversation_id: str | None
    domains: list[str]
    confirm: bool


@dataclass(frozen=True)
class Workspace:
    """``path`` or ``tutorial`` (``has_tutorial``: the key was given, whatever its value); the
    flags count only when literally ``true``. ``echo`` is the request as sent, for the confirm frame."""

    path: Any
    tutorial: Any
    has_tutorial: bool
    reset: bool
    confirm_reset: bool
    stop: bool
    echo: dict[str, Any] = field(repr=False)


Request = Prompt | Cancel | New | Select | Rename | Attach | Libraries | Workspace


def _strings(value: Any) -> list[str] | None:
    return list(value) if isinstance(value, list) and all(isinstance(v, str) for v in value) else None


def _id(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _title(value: Any) -> str | None:
    if not isinstance(value, str) or not 1 <= len(value.strip()) <= MAX_TITLE \
            or any(ord(c) < 32 or ord(c) == 127 for c in value):
        return None
    return value.strip()


def parse_request(method: str, params: dict[str, Any]) -> Request | None:
    match method:
        case "session/prompt":
            text, cid = params.get("prompt"), params.get("conversation_id")
            if not isinstance(text, str) or not isinstance(cid, str):
                raise BadRequest("bad_frame")
            return Prompt(cid, text)
        case "session/cancel":
            return Cancel()
        case "clauz3/new":
            agent, domains = params.get("agent"), params.get("domains")
            if ("agent" in params and not isinstance(agent, str)) or (domains is not None and _strings(domains) is None):
                raise BadRequest("bad_frame")
            return New(agent, _strings(domains))
        case "clauz3/select":
            target = params.get("id")
            if not isinstance(target, str) or not is_conversation_id(target):
                raise BadRequest("not_found")
            return Select(target)
        case "clauz3/rename":
            target = params.get("id")
            if not isinstance(target, str):
                raise BadRequest("not_found")
            return Rename(target, _title(params.get("title")))
        case "clauz3/attach":
            ids = _strings(params.get("attachments"))
            if ids is None:
                raise BadRequest("bad_frame")
            return Attach(_id(params.get("conversation_id")), ids)
        case "clauz3/libraries":
            domains = _strings(params.get("domains"))
            if domains is None:
                raise BadRequest("bad_frame")
            return Libraries(_id(params.get("conversation_id")), domains, params.get("confirm") is True)
        case "clauz3/workspace":
            return Workspace(params.get("path"), params.get("tutorial"), "tutorial" in params,
                             params.get("reset") is True, params.get("confirm_reset") is True,
                             params.get("stop") is True, dict(params))
    return None
