"""The host's ACP client core (04 §2–§4): one adapter process, one live session, turns, Stop.

Our JSON-RPC connection (:mod:`.jsonrpc`) runs over our own pipes (:class:`~.acp_transport.PipeTransport`)
with a raw request handler, so we see every frame as sent: updates are taken from the raw-frame
observer in wire order (ACP-10) and permission requests are judged on their raw params (PRM-1..3),
including malformed ones, which a typed router would answer with a validation error instead of
``cancelled``. Everything the rest of the host sees is an :mod:`.acp_messages` event on
:attr:`AcpClient.events` (and the optional ``sink``), in order.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import replace
from typing import Any, NoReturn

from clauz3.sessions.agent.acp_messages import (
    CONFIG_KINDS,
    STOP_REASONS,
    AcpEvent,
    AgentExited,
    AgentInfo,
    AgentStopped,
    Capabilities,
    ConfigUpdate,
    OtherUpdate,
    PermissionRefused,
    SessionInfo,
    ToolCall,
    TurnEnded,
    read_update,
)
from clauz3.sessions.agent.acp_params import PROTOCOL_VERSION, SessionParams, initialize_params, sanitize
from clauz3.sessions.agent.acp_permissions import CANCELLED, PermissionRule, decide, request_tool_call_id
from clauz3.sessions.agent.acp_transport import PipeTransport
from clauz3.sessions.agent.jsonrpc import RpcConnection, RpcError
from clauz3.sessions.agent.process_group import AgentLaunch, AgentProcess
from clauz3.sessions.errors import SessionError

log = logging.getLogger("clauz3.sessions.acp")

INITIALIZE_TIMEOUT = 60.0
SESSION_TIMEOUT = 90.0
CANCEL_GRACE = 3.0
SETTLE_QUIET = 0.05
SETTLE_LIMIT = 0.5
MAX_ANNOUNCED = 10_000
OVERSIZE_DETAIL = "The agent sent a message larger than 16 MiB."
EXITED_DETAIL = "The agent exited unexpectedly."
STOPPED = "Agent stopped"
DISABLED = "Client capability disabled"


class AcpError(SessionError):
    """A failed ACP step. ``str(error)`` is safe to show (sanitized, host-authored or adapter text)."""

    def __init__(self, message: str, *, code: int | None = None, ended: bool = False) -> None:
        super().__init__(message)
        self.code = code
        self.ended = ended  # the adapter was ended because of this failure

    @property
    def auth_required(self) -> bool:
        return self.code == -32000


class AcpClient:
    """One adapter start. Create, ``await start()``, then ``new_session``/``load_session``, ``prompt``.

    ``permissions`` is the agent's tool-identity rule of PRM-2 (its provider's ``permissions``);
    ``label`` names the agent in messages.
    """

    def __init__(
        self,
        launch: AgentLaunch,
        *,
        permissions: PermissionRule,
        label: str,
        sink: Callable[[AcpEvent], None] | None = None,
        cancel_grace: float = CANCEL_GRACE,
        term_grace: float = 0.0,
    ) -> None:
        self.launch = launch
        self.permissions = permissions
        self.label = label
        self.events: asyncio.Queue[AcpEvent] = asyncio.Queue()
        self._sink = sink
        self._cancel_grace = cancel_grace
        self._term_grace = term_grace
        self._process: AgentProcess | None = None
        self._transport: PipeTransport | None = None
        self._conn: RpcConnection | None = None
        self._watch: asyncio.Task[None] | None = None
        self.info: AgentInfo | None = None
        self.session_id: str | None = None
        # Turn state; _turn_active flips in wire order (request sent / response observed).
        self._turn_active = False
        self._turn_running = False
        self._turn_done = asyncio.Event()
        self._turn_done.set()
        self._prompt_request_id: Any = None
        self._cancel_sent = False
        self._saw_output = False
        self._announced: OrderedDict[str, str] = OrderedDict()
        self._refused: set[str] = set()
        self._escalation: asyncio.TimerHandle | None = None
        self._closing = False
        self._forced = False
        self._exit_detail: str | None = None
        self._background: set[asyncio.Future[None]] = set()
        self._frames_in = 0

    # -- lifecycle ---------------------------------------------------------------------------

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process else None

    @property
    def alive(self) -> bool:
        return self._process is not None and not self._closing and self._exit_detail is None

    @property
    def capabilities(self) -> Capabilities:
        return self.info.capabilities if self.info else Capabilities()

    @property
    def turn_running(self) -> bool:
        return self._turn_running

    @property
    def cancelling(self) -> bool:
        return self._turn_running and self._cancel_sent

    async def start(self, timeout: float = INITIALIZE_TIMEOUT, *, process: AgentProcess | None = None) -> AgentInfo:
        """Spawn the adapter (or take ``process``, already started with :attr:`launch` and never spoken
        to) and send ``initialize`` (ACP-1..3). On failure the adapter is ended."""
        # Spawn first: the adapter's own start-up overlaps the SDK import here (00 DEC-6).
        self._process = process or await AgentProcess.start(self.launch)
        self._transport = PipeTransport(self._process.stdout, self._process.stdin)
        self._transport.on_send = self._on_send
        self._transport.on_end = self._on_stream_end
        self._conn = RpcConnection(self._transport, on_request=self._handle, on_incoming=self._observe)
        self._watch = asyncio.create_task(self._watch_exit(), name="acp.watch")
        result = await self._step(
            "initialize", initialize_params(), timeout, f"it did not answer within {timeout:g} s"
        )
        self.info = await self._check_initialize(result)
        return self.info

    async def _check_initialize(self, result: Any) -> AgentInfo:
        if not isinstance(result, dict):
            await self._fail_start("Invalid ACP initialize result.")
        version = result.get("protocolVersion")
        if version != PROTOCOL_VERSION:
            shown = sanitize(version)[:40]
            await self._fail_start(f"{self.label} speaks ACP version {shown}; clauz3 needs version 1.")
        caps = result.get("agentCapabilities", {})
        if caps is None:
            caps = {}
        if not isinstance(caps, dict):
            await self._fail_start("Invalid ACP initialize result.")
        raw_prompt_caps = caps.get("promptCapabilities")
        prompt_caps = raw_prompt_caps if isinstance(raw_prompt_caps, dict) else {}
        raw_agent_info = result.get("agentInfo")
        agent_info = raw_agent_info if isinstance(raw_agent_info, dict) else {}
        raw_methods = result.get("authMethods")
        methods = raw_methods if isinstance(raw_methods, list) else []
        return AgentInfo(
            capabilities=Capabilities(
                load_session=caps.get("loadSession") is True,
                images=prompt_caps.get("image") is True,
                files=prompt_caps.get("embeddedContext") is True,
            ),
            agent_name=agent_info.get("name") if isinstance(agent_info.get("name"), str) else None,
            agent_version=agent_info.get("version") if isinstance(agent_info.get("version"), str) else None,
            auth_methods=tuple(m for m in methods if isinstance(m, dict)),
        )

    async def _fail_start(self, message: str) -> NoReturn:
        await self._shutdown()
        raise AcpError(message, ended=True)

    async def authenticate(self, method_id: str, timeout: float = INITIALIZE_TIMEOUT) -> None:
        """ACP ``authenticate`` with one of the ``authMethods`` initialize listed (04 CDX-3), before any
        session request. An error leaves the adapter running; the caller decides (it ends the start)."""
        await self._step("authenticate", {"methodId": method_id}, timeout, f"it did not sign in within {timeout:g} s")

    async def new_session(self, params: SessionParams, timeout: float = SESSION_TIMEOUT) -> SessionInfo:
        """``session/new`` with host-built params (ACP-4..8). A bad result ends the adapter."""
        result = await self._step("session/new", params.new_params(), timeout, _session_timeout(timeout))
        session_id = result.get("sessionId") if isinstance(result, dict) else None
        if not isinstance(session_id, str) or not session_id:
            await self._fail_start(f"Invalid ACP response from {self.label}")
        self.session_id = session_id
        return SessionInfo(session_id, result)

    async def load_session(
        self, params: SessionParams, session_id: str, timeout: float = SESSION_TIMEOUT
    ) -> SessionInfo:
        """``session/load`` (RSM-2). Replayed history arrives outside a turn and is dropped (RSM-3).

        An adapter error leaves the adapter running and no live session (RSM-4: the caller reports
        ``resume_failed`` and the next prompt needs ``new_session``).
        """
        self.session_id = session_id
        try:
            result = await self._step(
                "session/load", params.load_params(session_id), timeout, _session_timeout(timeout)
            )
        except AcpError:
            self.session_id = None
            raise
        await self._settle()
        return SessionInfo(session_id, result if isinstance(result, dict) else {})

    async def _settle(self) -> None:
        """Let a replay sent after the load response arrive before the first prompt can start.

        Such frames are outside any turn and dropped (RSM-3); the wire gives no marker for their
        end, so wait until the agent has been quiet for a moment (bounded).
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + SETTLE_LIMIT
        while loop.time() < deadline and self.alive:
            seen = self._frames_in
            await asyncio.sleep(SETTLE_QUIET)
            if self._frames_in == seen:
                return

    async def request_raw(self, method: str, params: dict[str, Any], timeout: float = 30.0) -> Any:
        """Send any request through the SDK connection's generic sender (04 MDL-3), raw result back."""
        return await self._step(method, params, timeout, f"it did not answer within {timeout:g} s")

    async def close(self) -> None:
        """End the adapter (SUP-6): pending requests fail with "Agent stopped". Idempotent."""
        if self._closing:
            return
        already_gone = self._exit_detail is not None
        await self._shutdown()
        if self._turn_running:
            await self._turn_done.wait()
        if not already_gone:
            self._emit(AgentStopped(forced=False))

    # -- turns -------------------------------------------------------------------------------

    async def prompt(self, blocks: list[dict[str, Any]]) -> TurnEnded:
        """One turn (ACP-15..17). The returned :class:`TurnEnded` is also the turn's last event."""
        if self._turn_running:
            raise AcpError("A turn is already running")
        if not self.alive or self._conn is None or self.session_id is None:
            raise AcpError(STOPPED)
        self._begin_turn()
        ended: TurnEnded | None = None
        try:
            result = await self._conn.send_request("session/prompt", {"sessionId": self.session_id, "prompt": blocks})
            ended = self._turn_result(result)
        except RpcError as exc:
            if self._cancel_sent:
                ended = TurnEnded("cancelled")
            else:
                ended = TurnEnded("error", error=sanitize(str(exc), self.launch.env))
        except ConnectionError:
            if self._forced:
                ended = TurnEnded("cancelled", forced=True)
            else:
                ended = TurnEnded("error", error=self._exit_detail or STOPPED)
        finally:
            self._end_turn()
            if ended is None:  # the caller cancelled us: the turn is over without an answer
                self._turn_done.set()
        self._emit(ended)
        self._turn_done.set()
        return ended

    def _turn_result(self, result: Any) -> TurnEnded:
        stop = result.get("stopReason") if isinstance(result, dict) else None
        if self._cancel_sent:
            return TurnEnded("cancelled")
        if stop not in STOP_REASONS:
            return TurnEnded("error", error=f"Invalid ACP response from {self.label}")
        return TurnEnded(stop, no_response=not self._saw_output)

    def _begin_turn(self) -> None:
        self._turn_running = True
        self._turn_active = True
        self._turn_done = asyncio.Event()
        self._cancel_sent = False
        self._saw_output = False
        self._announced.clear()
        self._refused.clear()

    def _end_turn(self) -> None:
        self._turn_running = False
        self._turn_active = False
        self._prompt_request_id = None
        if self._escalation is not None:
            self._escalation.cancel()
            self._escalation = None

    async def cancel(self) -> None:
        """Stop (ACP-18/19): ``session/cancel`` now; a second Stop, or no end within the grace, kills."""
        if not self._turn_running or self._closing:
            return
        if self._cancel_sent:
            await self._force_stop()
            return
        self._cancel_sent = True
        loop = asyncio.get_running_loop()
        self._escalation = loop.call_later(self._cancel_grace, self._escalate)
        if self._conn is not None:
            with contextlib.suppress(ConnectionError, OSError):
                await self._conn.send_notification("session/cancel", {"sessionId": self.session_id})

    def _escalate(self) -> None:
        self._escalation = None
        if self._turn_running and not self._closing:
            self._keep(asyncio.ensure_future(self._force_stop()))

    async def _force_stop(self) -> None:
        if self._closing:
            return
        self._forced = True
        await self._shutdown()
        if self._turn_running:
            await self._turn_done.wait()
        self._emit(AgentStopped(forced=True))

    # -- frames ------------------------------------------------------------------------------

    def _on_send(self, message: dict[str, Any]) -> None:
        if message.get("method") == "session/prompt":
            self._prompt_request_id = message.get("id")

    def _observe(self, frame: dict[str, Any]) -> None:
        self._frames_in += 1
        if "method" not in frame:
            if self._prompt_request_id is not None and frame.get("id") == self._prompt_request_id:
                self._turn_active = False  # later updates are outside the turn (ACP-12)
            return
        if frame.get("method") == "session/update" and "id" not in frame:
            self._on_update(frame)

    def _on_update(self, frame: dict[str, Any]) -> None:
        """ACP-11..13, synchronously in wire order (never awaits before enqueueing)."""
        incoming = read_update(frame)
        if incoming is None or self.session_id is None or incoming.session_id != self.session_id:
            return
        message = incoming.message
        if not self._turn_active:
            if isinstance(message, OtherUpdate) and message.kind in CONFIG_KINDS:
                self._emit(ConfigUpdate(message.kind))
            return
        self._saw_output = self._saw_output or incoming.produces_output
        if isinstance(message, ToolCall):
            message = self._identify(message, incoming.update)
        self._emit(message)

    def _identify(self, call: ToolCall, update: dict[str, Any]) -> ToolCall:
        """PRM-2: remember the clauz3 tool this call id was announced as, from structured fields."""
        call_id = call.tool_call_id
        tool = self.permissions.announced_tool(update)
        if tool is not None:
            self._announced[call_id] = tool
            self._announced.move_to_end(call_id)
            while len(self._announced) > MAX_ANNOUNCED:
                self._announced.popitem(last=False)
        tool = self._announced.get(call_id)
        return replace(call, tool=tool, shown_tool=tool or call.shown_tool)

    async def _handle(self, method: str, params: Any) -> Any:
        """Every agent → client request (notifications are the observer's). Only permission requests
        get an answer other than -32601."""
        if method == "session/request_permission":
            turn_open = self._turn_active and not self._cancel_sent and not self._closing
            answer = decide(
                self.permissions, params, live_session_id=self.session_id, turn_open=turn_open,
                announced=dict(self._announced),
            )
            if answer is CANCELLED:
                call_id = request_tool_call_id(params)
                if call_id is None or call_id not in self._refused:
                    if call_id is not None:
                        self._refused.add(call_id)
                    self._emit(PermissionRefused(call_id))
            return answer
        raise RpcError(-32601, DISABLED)

    # -- plumbing ----------------------------------------------------------------------------

    async def _step(self, method: str, params: dict[str, Any], timeout: float, timeout_reason: str) -> Any:
        if self._conn is None or not self.alive:
            raise AcpError(self._exit_detail or STOPPED)
        try:
            return await asyncio.wait_for(self._conn.send_request(method, params), timeout)
        except TimeoutError:
            await self._shutdown()
            raise AcpError(timeout_reason, ended=True) from None
        except RpcError as exc:
            raise AcpError(sanitize(str(exc), self.launch.env), code=exc.code) from None
        except ConnectionError:
            raise AcpError(self._exit_detail or STOPPED, ended=True) from None

    def _on_stream_end(self, oversize: bool) -> None:
        if self._closing or self._exit_detail is not None:
            return
        self._exit_detail = OVERSIZE_DETAIL if oversize else EXITED_DETAIL
        self._keep(asyncio.ensure_future(self._after_unexpected_end()))

    async def _after_unexpected_end(self) -> None:
        await self._shutdown()
        if self._turn_running:
            await self._turn_done.wait()
        self._emit(AgentExited(self._exit_detail or EXITED_DETAIL))

    async def _watch_exit(self) -> None:
        assert self._process is not None
        await self._process.wait()
        self._on_stream_end(False)

    async def _shutdown(self) -> None:
        if self._closing:
            return
        self._closing = True
        if self._escalation is not None:
            self._escalation.cancel()
            self._escalation = None
        if self._process is not None:
            await self._process.end(term_grace=self._term_grace)
        if self._conn is not None:
            with contextlib.suppress(Exception):
                await self._conn.close()
        if self._watch is not None and self._watch is not asyncio.current_task():
            self._watch.cancel()

    def _keep(self, task: asyncio.Future[None]) -> None:
        """Background tasks stay referenced until done (a dropped task may be collected mid-run)."""
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def _emit(self, event: AcpEvent) -> None:
        self.events.put_nowait(event)
        if self._sink is not None:
            try:
                self._sink(event)
            except Exception:
                log.exception("ACP event sink failed")


def _session_timeout(timeout: float) -> str:
    return f"it did not start a session within {timeout:g} s. Check its sign-in and network."
