"""The workspace host: the current project, its store, its live conversation and the WS commands.

One :class:`Host` per service. It owns the publisher (the page's one subscription), listens to the
in-process authority and to run records from bridges, and handles client commands strictly in
order (02 WS-8). Workspace switching lives in :mod:`.workspaces`, files in :mod:`.files`.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from clauz3.approvals.authority import ApprovalAuthority
from clauz3.base.provenance import TranscriptIndex
from clauz3.layers.discovery import DiscoveryError, default_import_roots, discover_domains
from clauz3.layers.skills import SkillDoc, session_instructions, snapshot_skills
from clauz3.runs.records import Phase, RunRecord
from clauz3.sessions.agent.bridge_check import BridgeCheck
from clauz3.sessions.agent.providers import (
    AGENTS,
    CLAUDE_FALLBACK,
    HINTS,
    SHORT_LABELS,
    Availability,
    check,
    enabled_in,
)
from clauz3.sessions.conversation.attachments import AttachmentStore
from clauz3.sessions.conversation.conversation import ConversationRuntime
from clauz3.sessions.conversation.host_links import HostLinks
from clauz3.sessions.conversation.libraries import drifted, new_selection, selection_fields
from clauz3.sessions.conversation.library_command import apply_libraries
from clauz3.sessions.conversation.lifetime import LifetimeServer
from clauz3.sessions.conversation.notices import notice
from clauz3.sessions.conversation.publisher import Publisher
from clauz3.sessions.conversation.run_journals import undo_state
from clauz3.sessions.conversation.runs import UNDONE, RunUndo
from clauz3.sessions.conversation.saved_state import SavedState
from clauz3.sessions.conversation.workspaces import switch_workspace
from clauz3.sessions.conversation.ws_requests import (
    Attach,
    BadRequest,
    Cancel,
    Libraries,
    New,
    Prompt,
    Rename,
    Select,
    Workspace,
    parse_request,
)
from clauz3.sessions.launch.config import LaunchConfig
from clauz3.sessions.store.lease import Lease, LeaseHeld, acquire_conversation_lock
from clauz3.sessions.store.recent import RecentWorkspaces
from clauz3.sessions.store.store import ConversationStore, is_conversation_id

# Builds the page's ``clauz3/state`` object from the live conversation and its host.
PageState = Callable[[ConversationRuntime, HostLinks], dict[str, Any]]

log = logging.getLogger("clauz3.sessions.conversation.host")

LIST_COALESCE = 1.0


WAITING_FOR_YOU = ("A program is waiting for your decision on its card: approve or reject it (or press Stop) "
                   "before sending another message.")

class Host:
    def __init__(self, config: LaunchConfig, *, authority: ApprovalAuthority, lifetime: LifetimeServer,
                 store: ConversationStore, recent: RecentWorkspaces, lease: Lease, tmp_dir: Path,
                 page_state: PageState) -> None:
        self.config = config
        self.data_dir = Path(config.data_dir)
        self.launch_project = config.project
        self.project = config.project
        self.tutorial = config.tutorial
        self.authority = authority
        self.lifetime = lifetime
        self.store = store
        self.recent = recent
        self.lease = lease
        self.tmp_dir = tmp_dir
        self.attachments = AttachmentStore(self.data_dir)
        self.operation: str | None = None
        # The page's state object is built at the web edge (web/state_frame.py), which hands it in.
        self._page_state = page_state
        self.publisher = Publisher(self.snapshot, self.state)
        self.conversation: ConversationRuntime | None = None
        self._list_pending = False
        self._commands = asyncio.Lock()
        self.bridge_check: BridgeCheck = BridgeCheck(config)
        # SKL-5: snapshotted once at launch; they belong to the launch project (WSP-8, TUT-4).
        self.skills: list[SkillDoc] = snapshot_skills(config.skills_dirs) if config.skills_dirs else []
        self._availability: dict[str, Availability] = {}
        self.providers_task: asyncio.Task[None] | None = None
        self.launch_policy = authority.config.policy
        authority.on_change(self._approval_changed)
        authority.config.provenance = self.provenance_index
        lifetime.on_record = self.on_run_record
        lifetime.on_gone = self._bridge_gone

    # -- the seams other parts call -------------------------------------------------------------

    def on_run_record(self, conversation_id: str, generation: str, record: RunRecord) -> None:
        """Run records from a bridge's lifetime connection (00 DEC-5). Older generations are ignored."""
        conv = self.conversation
        if generation != self.authority.generation or conv is None or conv.id != conversation_id:
            return
        conv.on_run_record(record)

    def _approval_changed(self, view: dict[str, Any]) -> None:
        conv = self.conversation
        if conv is not None and view.get("conversation_id") == conv.id \
                and view.get("workspace_generation") == self.authority.generation:
            conv.on_approval(view)

    def provenance_index(self, conversation_id: str | None) -> TranscriptIndex | None:
        """Issue 20: the live conversation's transcript index, for the authority's provenance block."""
        conv = self.conversation
        return conv.provenance.index if conv is not None and conv.id == conversation_id else None

    def _bridge_gone(self, conversation_id: str) -> None:
        self.authority.cancel_pending(conversation_id, "bridge_gone")

    def secret_values(self) -> list[str]:
        """Everything that must never reach a page, frame, store or log (tests grep for these)."""
        return [*self.authority.submission_tokens(), *self.lifetime.secret_values(), self.authority._key.text]

    # -- views ---------------------------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        assert self.conversation is not None
        return self._page_state(self.conversation, self)

    def snapshot(self) -> dict[str, Any]:
        conv = self.conversation
        assert conv is not None
        return {"history": list(conv.history), "state": self._page_state(conv, self),
                "approvals": list(conv.approvals.values())}

    # -- what a conversation reads of its host (HostLinks) ----------------------------------------

    @property
    def port(self) -> int:
        return self.config.port

    @property
    def generation(self) -> str:
        return self.authority.generation

    async def bridge_ok(self) -> bool:
        return await self.bridge_check.ok()

    def drifted(self, saved: SavedState) -> bool:
        return drifted(self.project, self.data_dir, saved)

    def undo_state(self, run_id: str) -> RunUndo:
        return undo_state(self.data_dir, self.project, run_id)

    def in_launch_project(self) -> bool:
        return self.project == self.launch_project and self.tutorial is None

    def instructions(self) -> str:
        """SKL-2 (browser): operator documents only in the launch project, never in a tutorial."""
        return session_instructions(unrestricted=self.config.unrestricted, browser=True, tutorial=self.tutorial,
                                    skills=self.skills if self.in_launch_project() else ())

    def bridge_extra(self) -> list[str]:
        if not self.in_launch_project():
            return []
        return [arg for d in self.config.skills_dirs for arg in ("--skills-dir", d)]

    def availability(self, agent: str) -> Availability:
        found = self._availability.get(agent)
        if found is None:
            found = self._availability[agent] = check(agent)
        return found

    async def load_providers(self) -> None:
        """04 §5: the selector inventory, checked once off the event loop (node --version may be slow)."""
        for agent in AGENTS:
            if agent not in self._availability:
                self._availability[agent] = await asyncio.to_thread(check, agent)
        self.state_changed()

    def providers(self, current: str) -> list[dict[str, Any]]:
        """02 §4.6 ``providers``: every provider, with availability and this workspace's mode rule."""
        out = []
        for agent in AGENTS:
            found = self._availability.get(agent)
            if found is None and agent != current:
                continue
            found = found or self.availability(agent)
            enabled, mode_hint = enabled_in(agent, unrestricted=self.config.unrestricted)
            out.append({"id": agent, "label": SHORT_LABELS.get(agent, agent), "available": found.available,
                        "enabled": found.available and enabled,
                        "hint": mode_hint or ("" if found.available else (found.hint or HINTS.get(agent, "")))})
        return out

    def state_changed(self) -> None:
        if self.conversation is not None:
            self.conversation.changed()

    def after_undo(self, run_id: str, results: list[dict[str, Any]]) -> None:
        """FS-6 done: mark the run undone and queue a host note for the agent's next prompt (TURN-3)."""
        conv = self.conversation
        if conv is None:
            return
        run = conv.runs.get(run_id)
        if run is not None:
            run.set_undo(UNDONE)
        parts = [f"{r['path']} {r['outcome'].replace('_', ' ')}" for r in results]
        conv.saved.host_notes.append(
            f"[clauz3] The person undid the file changes of run {run_id}: " + ("; ".join(parts) or "nothing to undo")
            + ". Read files again before relying on their contents.")
        conv.save_state()

    def domains(self) -> list[str]:
        try:
            return sorted(d.name for d in discover_domains(default_import_roots(Path(self.project))))
        except DiscoveryError:
            return []

    def layer(self, domains: list[str]) -> tuple[list[str], list[str]]:
        """A conversation's authorised layer: its domains' trusted roots and the default import roots."""
        imports = default_import_roots(Path(self.project))
        try:
            found = discover_domains(imports)
        except DiscoveryError:
            found = []
        trusted = [str(d.trusted_root) for d in found if d.name in set(domains)]
        return trusted, [str(p) for p in imports]

    def conversations_frame(self) -> dict[str, Any]:
        current = self.conversation.id if self.conversation else None
        rows, _ = self.store.listing(limit=200, current=current)
        return {"method": "clauz3/conversations", "params": {"conversations": [
            {"id": r.id, "title": r.title, "updated": r.updated, "agent": r.agent, "turns": r.turns} for r in rows]}}

    def list_changed(self) -> None:
        """WS-9: pushed after list changes, coalesced to ≤ 1/s."""
        if self._list_pending:
            return
        self._list_pending = True

        def flush() -> None:
            self._list_pending = False
            if self.conversation is not None:
                self.publisher.send(self.conversations_frame())

        asyncio.get_running_loop().call_later(LIST_COALESCE, flush)

    @property
    def idle(self) -> bool:
        return self.conversation is None or self.conversation.idle

    # -- conversations ---------------------------------------------------------------------------

    async def open_initial(self) -> None:
        """STORE-11: reopen the newest conversation (a new one if none, or with ``--prompt``)."""
        latest = self.store.latest()
        self.attachments.prune_old()
        self._prune_journals()
        if latest is None or self.config.prompt:
            await self._open_new(self.config.agent, None)
        else:
            await self._open(latest.id)
        assert self.conversation is not None
        self.store.prune_empty(keep=self.conversation.id)
        for run in self.conversation.runs.values():
            if not run.final:
                run.stop()
        self.conversation.save_state()
        if self.config.prompt:
            text = self.config.prompt
            self.config.prompt = None
            if self.conversation.check_prompt(text) is None:
                self.conversation.prompt(text)

    def _prune_journals(self) -> None:
        """FS-4: keep the newest 100 journals and ≤ 256 MiB per project."""
        from clauz3.storage.journals import journal_dir, prune_journals

        try:
            prune_journals(journal_dir(self.data_dir, self.project))
        except OSError:
            log.info("journal pruning failed", exc_info=True)

    async def _open(self, conversation_id: str) -> ConversationRuntime:
        row = self.store.get(conversation_id)
        if row is None:
            raise KeyError(conversation_id)
        lock = acquire_conversation_lock(self.data_dir, conversation_id)
        conv = ConversationRuntime(self, row, lock)
        self.conversation = conv
        if conv.saved.libraries and drifted(self.project, self.data_dir, conv.saved):
            if conv.turn >= 1:
                conv.mark_libraries_changed()  # SEL-15: read-only until the person decides
            else:  # nothing was said yet: the conversation simply takes the libraries as they are now
                conv.saved.set_selection(selection_fields(self.project, self.data_dir, conv.saved.libraries))
                conv.save_state()
        return conv

    async def _open_new(self, agent: str, domains: list[str] | None) -> ConversationRuntime:
        selection, dropped = new_selection(self.project, self.data_dir, domains, self.tutorial)
        row = self.store.create(agent=agent, state={**selection, "mode": self.config.mode})
        conv = await self._open(row.id)
        if dropped:
            self.publisher.send(notice("libraries_dropped", dropped, level="warning"))
        return conv

    async def close_current(self) -> None:
        conv, self.conversation = self.conversation, None
        if conv is not None:
            await conv.close()

    async def shutdown(self) -> None:
        if self.providers_task is not None:
            self.providers_task.cancel()
        await self.close_current()
        await self.lifetime.close()

    # -- commands (02 §4.3) -------------------------------------------------------------------------

    def waiting_for_you(self) -> bool:
        conv = self.conversation
        return conv is not None and any(r.phase == Phase.AWAITING_APPROVAL for r in conv.runs.values())

    def refuse(self, code: str, **fmt: str) -> None:
        conv = self.conversation
        if conv is not None and code in ("agent_unavailable", "attachments_unsupported"):
            fmt.setdefault("agent", conv.label)
        if code == "busy" and self.waiting_for_you():
            # Issue 12: nothing is "running" — the card waits for the person.
            self.publisher.send(notice(code, WAITING_FOR_YOU))
            return
        self.publisher.send(notice(code, **fmt))

    async def command(self, method: str, params: dict[str, Any]) -> None:
        """One page command, in arrival order (WS-8): validated once into a typed request."""
        async with self._commands:
            try:
                request = parse_request(method, params)
            except BadRequest as exc:
                self.refuse(exc.code)
                return
            match request:
                case None:
                    self.refuse("unsupported_method")
                case Prompt():
                    await self.cmd_prompt(request)
                case Cancel():
                    await self.cmd_cancel()
                case New():
                    await self.cmd_new(request)
                case Select():
                    await self.cmd_select(request)
                case Rename():
                    await self.cmd_rename(request)
                case Attach():
                    await self.cmd_attach(request)
                case Libraries():
                    await apply_libraries(self, request)
                case Workspace():
                    await switch_workspace(self, request)

    def stale(self, conversation_id: str | None) -> bool:
        """WS-8: a command naming a conversation that is not current gets notice + restore."""
        conv = self.conversation
        if conv is None or conversation_id != conv.id:
            self.refuse("stale_conversation")
            self.publisher.restore()
            return True
        return False

    async def cmd_prompt(self, request: Prompt) -> None:
        if self.stale(request.conversation_id):
            return
        conv = self.conversation
        assert conv is not None
        text = request.prompt
        code = conv.check_prompt(text)
        if code == "agent_unavailable":
            self.refuse(code, reason=conv.error or "it is not available")
            return
        if code is not None:
            self.refuse(code)
            return
        conv.prompt(text)

    async def cmd_cancel(self) -> None:
        if self.conversation is not None:
            await self.conversation.cancel()

    async def cmd_new(self, request: New) -> None:
        agent = request.agent if request.agent is not None else self.config.agent
        domains = request.domains
        if not self.idle:
            self.refuse("busy")
            return
        if agent not in AGENTS:
            self.refuse("agent_unavailable", agent=agent, reason="it is not a clauz3 agent")
            return
        found = await asyncio.to_thread(self.availability, agent)
        enabled, mode_hint = enabled_in(agent, unrestricted=self.config.unrestricted)
        if not found.available or not enabled:
            self.refuse("agent_unavailable", agent=SHORT_LABELS.get(agent, agent),
                        reason=mode_hint or found.reason or "it is not available in this workspace")
            return
        current = self.conversation
        wanted = domains
        if wanted is None and current is not None and current.turn == 0:
            # Issue 12: New conversation applies the current defaults; a blank conversation is reused only
            # when it already has them (no stale library chip).
            selection, _ = await asyncio.to_thread(new_selection, self.project, self.data_dir, None, self.tutorial)
            wanted = list(selection.get("libraries") or [])
        if current is not None and current.turn == 0 and current.agent == agent and (
                wanted is None or sorted(set(wanted)) == current.saved.libraries) \
                and not drifted(self.project, self.data_dir, current.saved):
            self.publisher.restore()
            current.ensure_agent()
            return
        await self.close_current()
        if current is not None and current.turn == 0:
            self.store.delete(current.id)
        await self._open_new(agent, domains)
        self.publisher.restore()
        self.list_changed()
        assert self.conversation is not None
        self.conversation.ensure_agent()

    async def cmd_select(self, request: Select) -> None:
        target = request.id
        if self.store.get(target) is None:
            self.refuse("not_found")
            return
        current = self.conversation
        if current is not None and current.id == target:
            if current.client is None:
                current.ensure_agent()
            return
        if not self.idle:
            self.refuse("busy")
            return
        try:
            lock = acquire_conversation_lock(self.data_dir, target)
        except LeaseHeld:
            self.refuse("conversation_in_use")
            return
        lock.release()
        await self.close_current()
        if current is not None and current.turn == 0:
            self.store.delete(current.id)
        try:
            await self._open(target)
        except LeaseHeld:
            await self._open_new(self.config.agent, None)
            self.refuse("conversation_in_use")
        self.publisher.restore()
        self.list_changed()
        assert self.conversation is not None
        self.conversation.ensure_agent()

    async def cmd_rename(self, request: Rename) -> None:
        target, title = request.id, request.title
        if self.store.get(target) is None:
            self.refuse("not_found")
            return
        if title is None:
            self.refuse("invalid_title")
            return
        self.store.rename(target, title)
        conv = self.conversation
        if conv is not None and conv.id == target:
            conv.title = title
            conv.saved.renamed = True
            conv.save_state()
        self.publisher.send(self.conversations_frame())

    async def cmd_attach(self, request: Attach) -> None:
        ids = request.attachments
        if self.stale(request.conversation_id):
            return
        conv = self.conversation
        assert conv is not None
        if len(ids) > 10:
            self.refuse("too_many_attachments")
            return
        metas = []
        for attachment_id in ids:
            meta = self.attachments.unsent(conv.id, attachment_id)
            if meta is None:
                self.refuse("attachment_invalid")
                return
            metas.append(meta)
        for meta in metas:
            if (meta["kind"] == "image" and not conv.capabilities.images) or (
                    meta["kind"] == "text" and not conv.capabilities.files):
                self.refuse("attachments_unsupported", kind="image" if meta["kind"] == "image" else "file")
                return
        conv.attachments = metas
        conv.changed()

    # -- delete (HTTP) --------------------------------------------------------------------------

    async def delete_conversation(self, conversation_id: str) -> tuple[int, dict[str, Any]]:
        """STORE-15."""
        if not is_conversation_id(conversation_id) or self.store.get(conversation_id) is None:
            return 404, {"error": {"code": "not_found", "message": "That conversation isn't in this workspace."}}
        conv = self.conversation
        if conv is not None and conv.id == conversation_id:
            if not self.idle:
                said = WAITING_FOR_YOU if self.waiting_for_you() else "An action is still running; wait for it or press Stop."
                return 409, {"error": {"code": "busy", "message": said}}
            await self.close_current()
            self.store.delete(conversation_id)
            self.attachments.delete_conversation(conversation_id)
            latest = self.store.latest()
            if latest is not None:
                await self._open(latest.id)
            else:
                await self._open_new(self.config.agent, None)
            self.publisher.restore()
            assert self.conversation is not None
            self.conversation.ensure_agent()
        else:
            self.store.delete(conversation_id)
            self.attachments.delete_conversation(conversation_id)
        self.list_changed()
        current = self.conversation.id if self.conversation else None
        return 200, {"deleted": conversation_id, "current": current}

    def startup_notices(self) -> list[dict[str, Any]]:
        out = []
        if self.config.claude_fallback:
            out.append(notice("claude_not_installed", CLAUDE_FALLBACK, level="info"))
        return out


def project_name(path: str) -> str:
    return os.path.basename(path) or path
