"""Switching workspaces inside one service (02 §7.2, WSP-3..9; 05 TUT-3..5).

The order is fixed: destination lease → stop the source → prepare the tutorial copy → rebind the
store and the authority (new generation, credentials rotated, pending requests cancelled) →
release the source lease → open the destination. A failure before the rebind completes rolls
back to the source with its lease; nothing is half-applied.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from clauz3.sessions.conversation.attachments import AttachmentStore
from clauz3.sessions.conversation.notices import notice
from clauz3.sessions.conversation.publisher import Publisher
from clauz3.sessions.conversation.tutorials import TutorialError, forget_state, prepare, reset, tutorial_of
from clauz3.sessions.conversation.ws_requests import Workspace
from clauz3.sessions.errors import SessionError
from clauz3.sessions.launch.config import LaunchConfig
from clauz3.sessions.store.lease import Lease, LeaseHeld, acquire_project_lease
from clauz3.sessions.store.recent import RecentWorkspaces
from clauz3.sessions.store.store import ConversationStore, StoreError
from clauz3.tutorials import TUTORIALS

if TYPE_CHECKING:  # typing only: the CLI imports launch_path_ok without the conversation machinery
    from clauz3.approvals.authority import ApprovalAuthority  # (and the `clauz3 ui` launcher ~10 MiB lighter)
    from clauz3.sessions.conversation.conversation import ConversationRuntime

MAX_PATH_BYTES = 4096
ACTIVE_TEXT = ("This workspace has active work. Stop its agent and runs before opening the other workspace? "
               "Its conversations are saved.")
TUTORIAL_PATH = "Open tutorials from the Tutorials list."
UNRESTRICTED_TUTORIAL = "Tutorials run in restricted mode. Start clauz3 without --unrestricted."


class Invalid(SessionError):
    pass


def reset_text(name: str) -> str:
    return (f"Start the {name} tutorial over? Running work there stops; its files, conversations and remembered "
            "approvals return to the original state. Nothing outside this tutorial changes.")


class WorkspaceHost(Protocol):
    """What switching reads and rebinds on the host (its public surface only)."""

    config: LaunchConfig
    data_dir: Path
    project: str
    tutorial: str | None
    launch_project: str
    launch_policy: Any
    store: ConversationStore
    authority: ApprovalAuthority
    lease: Lease
    recent: RecentWorkspaces
    attachments: AttachmentStore
    publisher: Publisher
    operation: str | None
    conversation: ConversationRuntime | None

    @property
    def idle(self) -> bool: ...

    async def close_current(self) -> None: ...

    async def open_initial(self) -> None: ...


def destination(host: WorkspaceHost, request: Workspace) -> tuple[str, str | None]:
    """(canonical project path, tutorial id) or :class:`Invalid` with the notice text."""
    data = os.path.realpath(host.data_dir)
    if request.has_tutorial:
        tid = request.tutorial
        if not isinstance(tid, str) or tid not in TUTORIALS:
            raise Invalid("Unknown tutorial")
        if host.config.unrestricted:
            raise Invalid(UNRESTRICTED_TUTORIAL)
        return os.path.join(data, "tutorials", tid), tid
    path = request.path
    if not isinstance(path, str) or not path or not os.path.isabs(path) or len(path.encode()) > MAX_PATH_BYTES \
            or "\x00" in path:
        raise Invalid("Choose an existing folder by its absolute path.")
    resolved = os.path.realpath(path)
    if not os.path.isdir(resolved):
        raise Invalid("Choose an existing folder by its absolute path.")
    tutorials = os.path.join(data, "tutorials")
    if resolved == tutorials or resolved.startswith(tutorials + os.sep):
        raise Invalid(TUTORIAL_PATH)
    if resolved == data or resolved.startswith(data + os.sep):
        raise Invalid("Choose an existing folder by its absolute path.")
    return resolved, tutorial_of(host.data_dir, resolved)


async def switch_workspace(host: WorkspaceHost, request: Workspace) -> None:
    try:
        dest, tutorial = destination(host, request)
    except Invalid as exc:
        host.publisher.send(notice("workspace_invalid", str(exc)))
        return
    wants_reset = request.reset
    if dest == host.project and not wants_reset:
        host.publisher.send(_changed(host))
        return
    if wants_reset and not request.confirm_reset:
        # Issue 12: one question for a reset — it says it stops the agent too; never "Stop and switch?" first.
        name = TUTORIALS[tutorial].name if tutorial in TUTORIALS else os.path.basename(dest)
        text = reset_text(name) + ("" if host.idle else " Its agent and runs are stopped first.")
        host.publisher.send({"method": "clauz3/confirm_workspace", "params": {
            "request": request.echo, "reason": "reset", "text": text}})
        return
    if not host.idle and not request.stop:
        host.publisher.send({"method": "clauz3/confirm_workspace", "params": {
            "request": request.echo, "reason": "active_work", "text": ACTIVE_TEXT}})
        return
    same = dest == host.project
    new_lease = None
    if not same:
        try:
            new_lease = acquire_project_lease(host.data_dir, dest, port=host.config.port)
        except LeaseHeld:
            host.publisher.send(notice("project_in_use"))
            return
    source_name = os.path.basename(host.project)
    host.operation = "switch"
    if host.conversation is not None:
        host.conversation.changed()
    await host.close_current()
    try:
        if tutorial is not None:
            dest = str(reset(host.data_dir, tutorial) if wants_reset else prepare(host.data_dir, tutorial))
        host.store.flush()  # its pending frames must not hold the file's write lock while the new store writes
        new_store = ConversationStore.open(host.data_dir, dest)
        if wants_reset:
            # TUT-3: that tutorial's conversations, defaults, approvals and journals; handoffs stay.
            while rows := new_store.listing(limit=500)[0]:
                for summary in rows:
                    new_store.delete(summary.id)
                    host.attachments.delete_conversation(summary.id)
            new_store.prune_empty()
            forget_state(host.data_dir, dest)
    except (TutorialError, StoreError, OSError) as exc:
        if new_lease is not None:
            new_lease.release()
        host.operation = None
        await host.open_initial()
        host.publisher.send(notice("switch_failed", reason=str(exc), name=source_name))
        host.publisher.restore()
        assert host.conversation is not None
        host.conversation.ensure_agent()
        return
    old_store = host.store
    host.store = new_store
    host.project = dest
    host.tutorial = tutorial
    host.authority.switch_workspace(dest)
    # WSP-8 / TUT-4: --policy belongs to the launch project and never applies in a tutorial.
    host.authority.config.policy = host.launch_policy if dest == host.launch_project and tutorial is None else None
    if new_lease is not None:
        host.lease.release()
        host.lease = new_lease
    if old_store is not new_store:
        old_store.close()
    host.recent.record(dest)
    host.operation = None
    await host.open_initial()
    host.publisher.send(_changed(host))
    host.publisher.restore()
    assert host.conversation is not None
    host.conversation.ensure_agent()


def _changed(host: WorkspaceHost) -> dict[str, Any]:
    return {"method": "clauz3/workspace_changed", "params": {
        "current": {"path": host.project, "name": os.path.basename(host.project), "tutorial": host.tutorial},
        "generation": host.authority.generation}}


def launch_path_ok(data_dir: Path, project: str) -> bool:
    """05 CLI-12: a project inside ``<data>`` cannot be opened (tutorials go through --tutorial)."""
    data = os.path.realpath(data_dir)
    real = os.path.realpath(project)
    return not (real == data or real.startswith(data + os.sep))
