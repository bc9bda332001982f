"""One live conversation: its agent, turns, Stop, notices, runs and transcript (02 §5, §6).

Everything is driven by events: ACP messages arrive through the client's sink in wire order,
run records arrive from the bridge's lifetime connection (:meth:`on_run_record`), approval
records from the in-process authority (:meth:`on_approval`). Nothing here polls.
Retained frames are stored first, then queued to the page (WS-11).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sys
import time
from collections import OrderedDict
from pathlib import Path
from typing import Any

from clauz3.runs.records import Phase, RunRecord
from clauz3.sessions.agent import prespawn
from clauz3.sessions.agent.acp_client import AcpClient, AcpError
from clauz3.sessions.agent.acp_messages import (
    AcpEvent,
    AgentExited,
    AgentStopped,
    AgentText,
    Capabilities,
    OtherUpdate,
    PermissionRefused,
    Plan,
    ToolCall,
    TurnEnded,
    to_frame,
)
from clauz3.sessions.agent.acp_params import bridge_entry
from clauz3.sessions.agent.bridge_check import FAILED
from clauz3.sessions.agent.providers import (
    PROVIDERS,
    SHORT_LABELS,
    ModelUnavailable,
    apply_model,
    build_launch,
    lookup,
    remove_private_dir,
)
from clauz3.sessions.agent.providers.opencode import first_prompt
from clauz3.sessions.conversation.agent_status import WORKING, AgentStatus
from clauz3.sessions.conversation.host_links import HostLinks
from clauz3.sessions.conversation.libraries import pending_notes
from clauz3.sessions.conversation.notices import RETAINED, notice
from clauz3.sessions.conversation.provenance import ConversationProvenance
from clauz3.sessions.conversation.runs import ConversationRun, RunCard
from clauz3.sessions.conversation.saved_state import SavedState
from clauz3.sessions.conversation.titles import title_from, unique
from clauz3.sessions.store.lease import Lease
from clauz3.sessions.store.store import DEFAULT_TITLE, Conversation

log = logging.getLogger("clauz3.sessions.conversation.conversation")

MAX_PROMPT = 20_000
PROOF_TIMEOUT_SECONDS = 60


class ConversationRuntime:
    def __init__(self, links: HostLinks, row: Conversation, lock: Lease | None) -> None:
        self.links = links
        self.id = row.id
        self.title = row.title
        self.agent = row.agent
        self.turn = row.turns
        self.saved = SavedState.from_json(row.state)
        self.history: list[dict[str, Any]] = links.store.history(row.id)
        self.history_bytes = row.bytes
        # Issue 20: what the person wrote and what the agent read, indexed as frames arrive.
        self.provenance = ConversationProvenance(self._attachment_text)
        self.provenance.rebuild(self.history)
        self.lock = lock
        self.status = AgentStatus.STOPPED
        self.capabilities = Capabilities()
        self.session_id: str | None = None
        self.error: str | None = None
        self.error_detail: str | None = None
        self.resume_notice: str | None = None
        self.attachments: list[dict[str, Any]] = []
        self.runs: OrderedDict[str, ConversationRun] = OrderedDict((r.request_id, r) for r in self.saved.runs)
        self._reconcile_runs()
        self.approvals: OrderedDict[str, dict[str, Any]] = OrderedDict()
        for saved_run in self.runs.values():  # what the runs' records told the agent before the host restarted
            self._index_run(saved_run.record, at=saved_run.record.updated_at)
        self.client: AcpClient | None = None
        self._ticket: str | None = None
        self._pipe_w: int | None = None
        self._start_task: asyncio.Task[None] | None = None
        self._turn_task: asyncio.Task[None] | None = None
        self._background: set[asyncio.Future[None]] = set()
        self._private_dir: Path | None = None
        self._first_prompt: str | None = None  # opencode: instructions for a fresh session's first prompt
        self._available = links.availability(self.agent) if (self.saved.mode or links.config.mode) == links.config.mode \
            else None
        if self._available is None or not self._available.available:
            self.status = AgentStatus.UNAVAILABLE
            reason = self._available.reason if self._available else "it runs in another mode"
            self.error = f"{self.label} can't start: {reason}"

    def _reconcile_runs(self) -> None:
        """A run left ``executing`` by a service that died may have acted: record it ``uncertain`` (QB-13)."""
        if not any(r.phase == Phase.EXECUTING for r in self.runs.values()):
            return
        from clauz3.runs.ledger import Ledger

        try:
            ledger = Ledger.for_project(Path(self.links.data_dir), self.links.project)
        except Exception:  # an unreadable ledger leaves the records as saved
            return
        try:
            for record in ledger.reconcile_conversation(self.id):
                if record.request_id in self.runs:
                    self.runs[record.request_id].reconcile(record)
        finally:
            ledger.close()

    # -- views ------------------------------------------------------------------------------------

    @property
    def label(self) -> str:
        return SHORT_LABELS.get(self.agent, self.agent)

    @property
    def history_limited(self) -> bool:
        return self.saved.history_limited

    def run_active(self) -> bool:
        return any(not r.final for r in self.runs.values())

    @property
    def idle(self) -> bool:
        return self.status not in WORKING and not self.run_active() \
            and self.links.operation is None

    def _index_run(self, record: RunRecord, at: float | None = None) -> None:
        self.provenance.run_record_of(record.to_json, self.approvals, at=at)

    def _attachment_text(self, attachment_id: str) -> str | None:
        """An attached file's text as the agent got it (ATT-5), for the provenance index; None when it is gone."""
        found = self.links.attachments.read(self.id, attachment_id)
        return None if found is None or found[0].get("kind") != "text" else found[1].decode("utf-8", errors="replace")

    def persisted(self) -> dict[str, Any]:
        """The saved state as stored, with the newest 50 run records."""
        self.saved.runs = list(self.runs.values())[-50:]
        if self.saved.mode is None:
            self.saved.mode = self.links.config.mode
        return self.saved.to_json()

    def changed(self) -> None:
        self.links.publisher.state_changed()

    def save_state(self) -> None:
        self.links.store.set_state(self.id, self.persisted())
        self.changed()

    # -- publishing -------------------------------------------------------------------------------

    def retain(self, frame: dict[str, Any], *, turn: int | None = None) -> None:
        """Store (STORE-6) then queue; past the limit deliver live with ``unsaved: true`` (STORE-9)."""
        self.provenance.observe(frame, self.approvals)
        store = self.links.store
        method = str(frame.get("method"))
        result = store.append(self.id, turn=self.turn if turn is None else turn, method=method, frame=frame,
                              state=self.persisted())
        if result.saved:
            self.history.append(frame)
            self.history_bytes += len(_encode(frame).encode("utf-8"))
            self.links.publisher.send(frame)
            return
        if result.limit_reached:
            self.saved.history_limited = True
            self.links.publisher.send(notice("storage_limit_reached"))
            self.changed()
        self.links.publisher.send({**frame, "unsaved": True})

    def say(self, code: str, **fmt: str) -> None:
        frame = notice(code, agent=self.label, **fmt) if "{agent}" in _text_of(code) else notice(code, **fmt)
        if code in RETAINED:
            self.retain(frame)
        else:
            self.links.publisher.send(frame)

    # -- agent lifecycle ---------------------------------------------------------------------------

    def ensure_agent(self) -> None:
        """WS-3: start unless running, ``stopped`` after a start, or ``unavailable``."""
        if self.status == AgentStatus.UNAVAILABLE or self.client is not None or self._start_task is not None:
            return
        if self.saved.libraries_changed:
            self.links.publisher.send(notice("libraries_changed"))
            return
        if self._available is not None and self._available.available:
            self.status = AgentStatus.STARTING  # at once, so the page never sees a startable agent as idle
        self._start_task = asyncio.create_task(self._start_guarded(), name=f"agent.start.{self.id[:8]}")

    async def _start_guarded(self) -> None:
        try:
            await self.start_agent()
        except asyncio.CancelledError:
            await self.end_agent()
            self.status = AgentStatus.STOPPED
            self.changed()
        finally:
            self._start_task = None

    def _credentials(self) -> dict[str, Any]:
        links = self.links
        trusted, imports = links.layer(list(self.saved.libraries))
        token = links.authority.register_conversation(self.id, trusted, imports)
        links.authority.set_paused(self.id, self.saved.approvals_paused)
        return {
            "service_url": f"http://127.0.0.1:{links.port}",
            "submission_token": token,
            "verify_key": links.authority.verify_key.text,
            "workspace_generation": links.generation,
            "conversation_id": self.id,
            "status_file": str(links.tmp_dir / f"runs-{links.generation}-{self.id}.json"),
            "proof_timeout_seconds": links.config.proof_timeout or PROOF_TIMEOUT_SECONDS,
            "require_sandbox": links.authority.config.require_sandbox,
        }

    def _bridge_args(self) -> list[str]:
        trusted, imports = self.links.layer(list(self.saved.libraries))
        args = ["--project", self.links.project]
        for root in trusted:
            args += ["--trusted-root", root]
        for root in imports:
            args += ["--import-root", root]
        return [*args, *self.links.bridge_extra()]

    async def mint_bridge_entry(self) -> tuple[dict[str, Any], str]:
        """The bridge's MCP entry with a fresh ticket for this conversation, and that ticket (the
        caller ends it). The terminal UI of ``clauz3 start claude`` uses it too, so it gets exactly
        the authorisation and roots a browser session of this conversation would."""
        links = self.links
        socket_path = await links.lifetime.endpoint(self.id)
        # Register now so the token exists before any bridge asks; the handshake re-reads it.
        self._credentials()
        ticket = links.lifetime.mint_ticket(self.id, self._credentials)
        entry = bridge_entry(python=sys.executable, bridge_args=self._bridge_args(), lifetime_socket=socket_path,
                             ticket_file=links.lifetime.ticket_file(ticket), data_dir=str(links.data_dir))
        return entry, ticket

    async def start_agent(self) -> None:
        links = self.links
        if self._available is None or not self._available.available:
            return
        self.status = AgentStatus.STARTING
        self.error = self.error_detail = None
        self.changed()
        # 00 DEC-6: the bridge self-check runs in parallel with the adapter's start; it is awaited
        # before session/new, the first step that starts a bridge.
        bridge_ok = asyncio.ensure_future(links.bridge_ok())
        entry, self._ticket = await self.mint_bridge_entry()
        if links.config.bridge_argv:
            entry["command"] = links.config.bridge_argv[0]
            entry["args"] = [*links.config.bridge_argv[1:], *self._bridge_args()]
            entry["env"] = [*entry["env"], *({"name": k, "value": v} for k, v in (links.config.bridge_env or {}).items())]
        taken = prespawn.take(self.agent)  # issue 13: the launch's adapter may be loading already
        read_end, write_end = (taken.read_fd, taken.write_fd) if taken is not None else os.pipe()
        self._pipe_w = write_end
        os.set_inheritable(write_end, False)
        instructions = links.instructions()
        try:
            provider = lookup(self.agent)
            started = build_launch(
                self.agent, project=links.project, bridge_entry=entry, data_dir=links.data_dir,
                adapter_argv=self._available.argv, instructions=instructions, requested_model=links.config.model,
                restricted=(self.saved.mode or links.config.mode) != "unrestricted",
                wrap=prespawn.supervisor_wrap(read_end), pass_fds=(read_end,), tmp_root=links.tmp_dir)
        except (ValueError, OSError) as exc:
            os.close(read_end)
            if taken is not None:
                await taken.process.end()
            await self.end_agent()
            self.status = AgentStatus.STOPPED
            self.error = f"{self.label} can't start: {exc}"
            self.say("agent_unavailable", reason=str(exc))
            self.changed()
            return
        self._private_dir = started.private_dir
        params = started.params
        client = AcpClient(started.launch, permissions=provider.permissions, label=self.label, sink=self._on_event)
        self.client = client
        try:
            try:
                info = await client.start(process=await taken.adopt(started.launch) if taken is not None else None)
            finally:
                os.close(read_end)
            if not await bridge_ok:
                await self.end_agent()
                self.status = AgentStatus.UNAVAILABLE
                self.error = f"{self.label} can't start: {FAILED}"
                self.say("agent_unavailable", reason=FAILED)
                self.changed()
                return
            await provider.before_session(client)  # CDX-3: Codex signs in before any session request
            self.capabilities = info.capabilities
            if info.agent_version:
                self.saved.agent_version = info.agent_version
            saved_session = self.saved.session_id
            session_result: Any = None
            if self.turn >= 1 and saved_session:
                if self.capabilities.load_session:
                    try:
                        session_result = (await client.load_session(params, saved_session)).result
                        self.resume_notice = None
                    except AcpError as exc:
                        if exc.ended:
                            raise
                        self.resume_notice = "resume_failed"
                        self.error_detail = str(exc)
                        self.say("resume_failed")
                else:
                    self.resume_notice = "resume_unsupported"
                    self.say("resume_unsupported")
            if client.session_id is None:
                session = await client.new_session(params)
                session_result = session.result
                self.saved.session_id = session.session_id
                self._first_prompt = started.first_prompt_instructions
            model = await apply_model(client, self.agent, session_result, links.config.model)
            if model:
                self.saved.model = model
            self.session_id = client.session_id
            self.status = AgentStatus.READY
            self.save_state()
        except (AcpError, ModelUnavailable) as exc:
            await self.end_agent()
            self.status = AgentStatus.STOPPED
            reason = self.failure_reason(exc)
            self.error = f"{self.label} can't start: {reason}"
            self.say("agent_unavailable", reason=reason)
            self.changed()

    def failure_reason(self, exc: Exception) -> str:
        """ACP-21: an authentication error at any step names how to sign in."""
        provider = PROVIDERS.get(self.agent)
        if isinstance(exc, AcpError) and exc.auth_required and provider is not None:
            return f"it needs you to sign in: {provider.row.sign_in_hint}"
        return str(exc)

    async def end_agent(self) -> None:
        """PROC-2: close the lifetime pipe, kill the supervisor's group, end the bridge's socket."""
        client, self.client = self.client, None
        if self._ticket is not None:
            self.links.lifetime.end_ticket(self._ticket)
            self._ticket = None
        if self._pipe_w is not None:
            with contextlib.suppress(OSError):
                os.close(self._pipe_w)
            self._pipe_w = None
        if client is not None:
            await client.close()
        remove_private_dir(self._private_dir)  # after the adapter's group is reaped (SUP-6)
        self._private_dir = None
        self.session_id = None
        # The bridge lost its socket with the ticket: its pending approvals go too (03 REQ-3).
        self.links.authority.cancel_pending(self.id, "bridge_gone")

    async def close(self) -> None:
        """Service shutdown or conversation switch: end the agent, persist, release the lock."""
        if self._start_task is not None:
            self._start_task.cancel()
            with contextlib.suppress(BaseException):
                await self._start_task
        await self.end_agent()
        if self._turn_task is not None:
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(self._turn_task, 2.0)
        self.links.authority.end_conversation(self.id, "bridge_gone")
        await self.links.lifetime.close_conversation(self.id)
        for run in self.runs.values():
            if not run.final:
                run.stop()
        with contextlib.suppress(Exception):
            self.save_state()
        if self.lock is not None:
            self.lock.release()

    # -- turns ----------------------------------------------------------------------------------

    def check_prompt(self, text: str) -> str | None:
        """TURN-1: the refusing notice code, or None when accepted."""
        trimmed = text.strip()
        if (not trimmed and not self.attachments) or len(trimmed) > MAX_PROMPT:
            return "prompt_invalid"
        if trimmed.startswith("/"):
            return "slash_command"
        if self.status == AgentStatus.UNAVAILABLE:
            return "agent_unavailable"
        if self._turn_task is not None and not self._turn_task.done():
            return "busy"
        # A prompt sent while the agent is still starting waits for the start instead of being
        # refused: the page enables Send before the state frame of a just-started agent arrives.
        starting = self.status == AgentStatus.STARTING and self._start_task is not None
        if self.status not in (AgentStatus.READY, AgentStatus.STOPPED) and not starting:
            return "busy"
        if self.run_active() or self.links.operation is not None:
            return "busy"
        if self.history_limited:
            return "storage_full"
        if self.saved.libraries_changed:
            return "libraries_changed"
        if self.links.drifted(self.saved):
            self.mark_libraries_changed()
            return "libraries_changed"
        return None

    def mark_libraries_changed(self) -> None:
        """SEL-8/SEL-15: read-only until the person continues with the current libraries or starts anew."""
        if self.saved.libraries_changed:
            return
        self.saved.libraries_changed = True
        self.save_state()

    def prompt(self, text: str) -> None:
        """TURN-3 after :meth:`check_prompt` accepted ``text``."""
        self.turn += 1
        staged = list(self.attachments)
        self.attachments = []
        self.retain({"method": "clauz3/user", "params": {
            "conversation_id": self.id, "turn": self.turn, "text": text, "attachments": staged}})
        self.status = AgentStatus.BUSY
        self.changed()
        self._turn_task = asyncio.create_task(self._run_turn(text, staged), name=f"turn.{self.turn}")

    async def _run_turn(self, text: str, staged: list[dict[str, Any]]) -> None:
        turn = self.turn
        start = self._start_task
        if start is not None:
            await asyncio.wait({start})  # never raises for the start's own outcome
            self.status = AgentStatus.BUSY
        if self.client is None or not self.client.alive:
            await self.end_agent()
            await self.start_agent()
            if self.client is None or self.status != AgentStatus.READY:
                self._finish_turn(TurnEnded("error", error=self.error or "The agent could not start."), turn)
                return
        self.status = AgentStatus.BUSY
        self.changed()
        notes = pending_notes(self.saved)
        body = ("\n".join(notes) + "\n\n" + text) if notes else text
        if self._first_prompt is not None:
            body = first_prompt(self._first_prompt, body)
            self._first_prompt = None
        blocks: list[dict[str, Any]] = [{"type": "text", "text": body}]
        blocks += self.links.attachments.blocks(self.id, staged)
        if staged:
            self.links.attachments.mark_sent(self.id, [a["id"] for a in staged])
        if notes:
            self.saved.host_notes = []
            self.saved.library_changes = []
            self.save_state()
        try:
            await self.client.prompt(blocks)
        except AcpError as exc:
            self._finish_turn(TurnEnded("error", error=self.failure_reason(exc)), turn)

    def _finish_turn(self, ended: TurnEnded, turn: int | None = None) -> None:
        params: dict[str, Any] = {"turn": self.turn if turn is None else turn, "stop_reason": ended.stop_reason}
        if ended.forced:
            params["forced"] = True
        if ended.error:
            params["error"] = ended.error
        self.retain({"method": "clauz3/turn_end", "params": params})
        if ended.no_response and ended.stop_reason == "end_turn":
            self.say("no_response")
        self.links.store.index_turn(self.id, params["turn"])
        if params["turn"] == 1 and not self.saved.renamed:
            first = next((f for f in self.history if f.get("method") == "clauz3/user"), None)
            if first is not None:
                # Issue 22: a short summary of the first turn, unique among the project's conversations.
                turn_runs = [r for r in self.runs.values() if r.turn == params["turn"]]
                made = title_from(str(first["params"].get("text", "")), turn_runs) or DEFAULT_TITLE
                others, _more = self.links.store.listing(limit=500)
                title = unique(made, {c.title for c in others if c.id != self.id})
                self.title = title
                self.links.store.rename(self.id, title)
                self.links.list_changed()
        self.status = AgentStatus.READY if self.client is not None and self.client.alive else AgentStatus.STOPPED
        self.save_state()

    async def cancel(self) -> None:
        """Stop (TURN-5..8)."""
        if self._start_task is not None and self.status == AgentStatus.STARTING:
            self._start_task.cancel()
            return
        for run in self.runs.values():
            if not run.final:
                self.links.lifetime.cancel_run(self.id, run.request_id)
        self.links.authority.cancel_pending(self.id, "stopped")
        client = self.client
        if client is not None and client.turn_running:
            self.status = AgentStatus.CANCELLING
            self.changed()
            await client.cancel()
        elif self.run_active():
            self.changed()

    # -- events -----------------------------------------------------------------------------------

    def _on_event(self, event: AcpEvent) -> None:
        if isinstance(event, AgentText | ToolCall | Plan | OtherUpdate):
            self.retain(to_frame(event))
        elif isinstance(event, PermissionRefused):
            self.say("permission_refused")
        elif isinstance(event, TurnEnded):
            self._finish_turn(event)
        elif isinstance(event, AgentStopped):
            self._agent_gone(forced=event.forced)
        elif isinstance(event, AgentExited):
            self._agent_gone(exited=event.detail)

    def _agent_gone(self, *, forced: bool = False, exited: str | None = None) -> None:
        task = asyncio.ensure_future(self.end_agent())
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        for run in self.runs.values():
            if not run.final:
                run.stop()
        if exited is not None:
            self.error_detail = exited
            self.say("agent_exited")
        elif forced:
            self.say("agent_stopped")
        self.status = AgentStatus.STOPPED
        self.save_state()

    def on_run_record(self, record: RunRecord) -> None:
        """A run record pushed by the bridge (DEC-5): shown at once, saved with the state."""
        request_id = record.request_id
        existing = self.runs.get(request_id)
        if existing is None and not record.final and self.links.drifted(self.saved):
            # SEL-8: refuse the run before its proof reaches approval: revoke this start's
            # submission token, stop the worker, and open the conversation read-only.
            self.links.authority.end_conversation(self.id, "stopped")
            self.links.lifetime.cancel_run(self.id, request_id)
            self.mark_libraries_changed()
            self.links.publisher.send(notice("libraries_changed", "This conversation's library files changed; "
                                             "reopen it to review the change."))
        # The record joins the host's own fields of the run (its turn, whether it can be undone).
        before = existing.phase if existing is not None else None
        run = existing if existing is not None else ConversationRun(record, turn=self.turn)
        run.update(record)
        self._index_run(record)  # issue 20: the agent gets this record too
        if request_id in self.approvals:
            run.set_card(RunCard.from_presentation(self.approvals[request_id].get("presentation")))
        if run.final and not run.undo.undone:
            run.set_undo(self.links.undo_state(request_id))
        self.runs[request_id] = run
        self.runs.move_to_end(request_id)
        while len(self.runs) > 50:
            self.runs.popitem(last=False)
        self.save_state()
        if before != run.phase:
            self.links.publisher.state_now()

    def on_approval(self, view: dict[str, Any]) -> None:
        """An approval record of this conversation changed in the authority (pushed, never polled)."""
        request_id = view.get("request_id")
        if not isinstance(request_id, str):
            return
        self.approvals[request_id] = view
        while len(self.approvals) > 50:
            self.approvals.popitem(last=False)
        run = self.runs.get(request_id)
        if run is not None:
            before = run.card
            run.set_card(RunCard.from_presentation(view.get("presentation")))
            if run.card != before:
                self.save_state()
        self.links.publisher.send({"method": "clauz3/approval", "params": {"record": view}})


def _encode(frame: dict[str, Any]) -> str:
    from clauz3.sessions.store.store import frame_text

    return frame_text(frame)


def _text_of(code: str) -> str:
    from clauz3.sessions.conversation.notices import TEXTS

    return TEXTS.get(code, "")


def now() -> float:
    return time.time()
