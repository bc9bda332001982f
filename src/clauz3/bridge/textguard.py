"""Every MCP message gets an answer, also one carrying text that is not valid (issue 19).

JSON may escape a lone surrogate (``"\\ud800"``); the MCP SDK's parser refuses such a line and drops it,
so the client's request waited for ever (a ``run`` whose source held one was never answered). This
guard sits between the SDK's stdio reader and the server: a line the SDK could not parse but Python's
JSON reader can is read here once, every lone surrogate is replaced by U+FFFD so the SDK can take the
message, and for a ``tools/call`` the first argument that held one is remembered by request id, so the
tool answers ``invalid arguments: '<name>' is not valid text: …`` instead of running on altered text.
Anything else the SDK could not parse passes on unchanged.
"""

from __future__ import annotations

import json
import re
from collections import OrderedDict
from types import TracebackType
from typing import Any, Self

import mcp_types as types
from mcp.shared.message import SessionMessage

from clauz3.bridge.schemas import invalid_text

_SURROGATE = re.compile("[\ud800-\udfff]")
MAX_FLAGGED = 64  # requests flagged but not yet answered; the oldest go first


class Flagged:
    """Request id → why its arguments are not valid text; taken once by the tool call."""

    def __init__(self) -> None:
        self._reasons: OrderedDict[str, str] = OrderedDict()

    def add(self, request_id: object, reason: str) -> None:
        self._reasons[repr(request_id)] = reason
        while len(self._reasons) > MAX_FLAGGED:
            self._reasons.popitem(last=False)

    def take(self, request_id: object) -> str | None:
        return self._reasons.pop(repr(request_id), None)


def _first_bad(value: Any, name: str | None = None) -> str | None:
    """Why the first string inside ``value`` (an argument, by its top-level name) is not valid text."""
    if isinstance(value, str):
        bad = invalid_text(value)
        return f"{(name or 'an argument')!r} is not valid text: {bad}" if bad else None
    if isinstance(value, dict):
        for key, item in value.items():
            found = _first_bad(key, name or key) if isinstance(key, str) and invalid_text(key) else None
            found = found or _first_bad(item, name or (key if isinstance(key, str) else None))
            if found:
                return found
    if isinstance(value, list):
        for item in value:
            found = _first_bad(item, name)
            if found:
                return found
    return None


def _clean(value: Any) -> Any:
    if isinstance(value, str):
        return _SURROGATE.sub("\ufffd", value)
    if isinstance(value, dict):
        return {_clean(k): _clean(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_clean(v) for v in value]
    return value


def repair(error: Exception, flagged: Flagged) -> SessionMessage | None:
    """The message the SDK could not parse, with its invalid text replaced (and flagged), or None."""
    errors = getattr(error, "errors", None)
    try:
        line = errors()[0].get("input") if callable(errors) else None
    except (IndexError, AttributeError, TypeError):
        line = None
    if not isinstance(line, str):
        return None
    try:
        doc = json.loads(line)
    except ValueError:
        return None
    cleaned = _clean(doc)
    if not isinstance(doc, dict) or cleaned == doc:
        return None  # refused for another reason: the SDK's answer (or silence) stands
    params = doc.get("params")
    if doc.get("method") == "tools/call" and "id" in doc and isinstance(params, dict):
        reason = _first_bad(params.get("arguments")) or _first_bad(params.get("name"), "name")
        if reason is not None:
            flagged.add(doc["id"], reason)
    try:
        message = types.jsonrpc_message_adapter.validate_json(json.dumps(cleaned), by_name=False)
    except ValueError:
        return None
    return SessionMessage(message)


class GuardedReader:
    """The SDK's read stream, with :func:`repair` applied to what it could not parse."""

    def __init__(self, inner: Any, flagged: Flagged) -> None:
        self._inner = inner
        self.flagged = flagged

    @property
    def last_context(self) -> Any:
        return getattr(self._inner, "last_context", None)

    async def receive(self) -> SessionMessage | Exception:
        item = await self._inner.receive()
        if isinstance(item, Exception):
            return repair(item, self.flagged) or item
        return item

    async def aclose(self) -> None:
        await self._inner.aclose()

    def __aiter__(self) -> Self:
        return self

    async def __anext__(self) -> SessionMessage | Exception:
        try:
            return await self.receive()
        except Exception as exc:
            import anyio

            if isinstance(exc, anyio.EndOfStream | anyio.ClosedResourceError):
                raise StopAsyncIteration from None
            raise

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, exc_val: BaseException | None,
                        exc_tb: TracebackType | None) -> bool | None:
        await self.aclose()
        return None
