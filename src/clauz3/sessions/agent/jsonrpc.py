"""JSON-RPC 2.0 between the host and one agent, over a message transport (04 §2).

The host needs only the protocol's plumbing: numbered requests with their responses, notifications,
and answers to the agent's own requests. ACP's shapes are read by :mod:`.acp_messages` and
:mod:`.acp_permissions`, from the raw frames :class:`RpcConnection` hands to its ``on_incoming`` hook
in wire order. Owning this edge (instead of the ``acp`` SDK's ``Connection``) keeps the SDK's
pydantic schema, about 0.5 s of imports on the service's one interpreter lock, off the first minute
(issue 13); agents themselves still run on the SDK.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from clauz3.sessions.errors import SessionError

log = logging.getLogger("clauz3.sessions.acp")

JsonObject = dict[str, Any]
RequestHandler = Callable[[str, Any], Awaitable[Any]]
INTERNAL_ERROR = -32603


class RpcError(SessionError):
    """An error response: ours to send (raised by a request handler) or the agent's (from a request)."""

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.data = data

    def to_json(self) -> JsonObject:
        error: JsonObject = {"code": self.code, "message": str(self)}
        if self.data is not None:
            error["data"] = self.data
        return error


class MessageTransport(Protocol):
    async def send(self, message: JsonObject) -> None: ...

    async def receive(self) -> JsonObject | None: ...


class RpcConnection:
    """One JSON-RPC peer. Requests the agent sends are answered by ``on_request`` (in a task of their
    own, so a slow answer never holds the stream); every incoming frame is first passed, synchronously
    and in order, to ``on_incoming``. When input ends, pending requests fail with ConnectionError."""

    def __init__(self, transport: MessageTransport, *, on_request: RequestHandler,
                 on_incoming: Callable[[JsonObject], None]) -> None:
        self._transport = transport
        self._on_request = on_request
        self._on_incoming = on_incoming
        self._next_id = 0
        self._pending: dict[int, asyncio.Future[Any]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._open = True
        self._reader = asyncio.ensure_future(self._read())

    async def send_request(self, method: str, params: Any = None) -> Any:
        """The result, or :class:`RpcError` for an error response, ConnectionError once closed."""
        self._check_open()
        request_id = self._next_id
        self._next_id += 1
        answer: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending[request_id] = answer
        try:
            await self._transport.send({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
            return await answer
        finally:
            self._pending.pop(request_id, None)

    async def send_notification(self, method: str, params: Any = None) -> None:
        self._check_open()
        await self._transport.send({"jsonrpc": "2.0", "method": method, "params": params})

    async def close(self) -> None:
        """Stop reading, fail pending requests and cancel the agent's unanswered requests."""
        self._end()
        self._reader.cancel()
        tasks = [*self._tasks, self._reader]
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def _check_open(self) -> None:
        if not self._open:
            raise ConnectionError("Connection closed")

    def _end(self) -> None:
        self._open = False
        pending, self._pending = list(self._pending.values()), {}
        for answer in pending:
            if not answer.done():
                answer.set_exception(ConnectionError("Connection closed"))

    async def _read(self) -> None:
        try:
            while (message := await self._transport.receive()) is not None:
                try:
                    self._on_incoming(message)
                except Exception:
                    log.exception("the ACP frame observer failed")
                self._dispatch(message)
        except Exception:
            log.exception("reading from the agent failed")
        finally:
            self._end()

    def _dispatch(self, message: JsonObject) -> None:
        method = message.get("method")
        if isinstance(method, str):
            if "id" in message:  # a request from the agent; notifications are the observer's alone
                task = asyncio.ensure_future(self._answer(message["id"], method, message.get("params")))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)
            return
        request_id = message.get("id")
        answer = self._pending.get(request_id) if isinstance(request_id, int) else None
        if answer is None or answer.done():
            return
        error = message.get("error")
        if "result" not in message and error is not None:
            error = error if isinstance(error, dict) else {}
            code = error.get("code")
            answer.set_exception(RpcError(code if isinstance(code, int) else INTERNAL_ERROR,
                                          str(error.get("message", "Error")), error.get("data")))
        else:
            answer.set_result(message.get("result"))

    async def _answer(self, request_id: Any, method: str, params: Any) -> None:
        reply: JsonObject = {"jsonrpc": "2.0", "id": request_id}
        try:
            reply["result"] = await self._on_request(method, params)
        except RpcError as exc:
            reply["error"] = exc.to_json()
        except Exception as exc:
            log.exception("answering the agent's %s failed", method)
            reply["error"] = RpcError(INTERNAL_ERROR, "Internal error", {"details": str(exc)}).to_json()
        if self._open:
            try:
                await self._transport.send(reply)
            except (ConnectionError, OSError):
                pass
