"""What a live conversation needs from its workspace host, as one typed Protocol.

:class:`~.host.Host` satisfies it directly (no bag of lambdas): a conversation reads the current
project, its store and the shared services through these members and nothing else of the host.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

from clauz3.approvals.authority import ApprovalAuthority
from clauz3.sessions.agent.providers import Availability
from clauz3.sessions.conversation.attachments import AttachmentStore
from clauz3.sessions.conversation.lifetime import LifetimeServer
from clauz3.sessions.conversation.publisher import Publisher
from clauz3.sessions.conversation.runs import RunUndo
from clauz3.sessions.conversation.saved_state import SavedState
from clauz3.sessions.launch.config import LaunchConfig
from clauz3.sessions.store.store import ConversationStore


class HostLinks(Protocol):
    config: LaunchConfig
    data_dir: Path
    project: str
    tutorial: str | None
    tmp_dir: Path
    store: ConversationStore
    authority: ApprovalAuthority
    lifetime: LifetimeServer
    publisher: Publisher
    attachments: AttachmentStore
    operation: str | None  # the host-wide operation running ("libraries", "switch"), if any

    @property
    def port(self) -> int: ...

    @property
    def generation(self) -> str: ...

    def layer(self, domains: list[str]) -> tuple[list[str], list[str]]:
        """The trusted roots of ``domains`` and the project's import roots."""
        ...

    def list_changed(self) -> None: ...

    async def bridge_ok(self) -> bool: ...

    def drifted(self, saved: SavedState) -> bool:
        """SEL-8/SEL-15: have this conversation's selected library files changed?"""
        ...

    def instructions(self) -> str:
        """SKL-2 session instructions."""
        ...

    def bridge_extra(self) -> list[str]:
        """The bridge's extra arguments (``--skills-dir`` of the launch project)."""
        ...

    def providers(self, current: str) -> list[dict[str, Any]]:
        """02 §4.6 ``providers`` inventory (never persisted)."""
        ...

    def undo_state(self, run_id: str) -> RunUndo:
        """05 FS-5: whether a finished run of this project can be undone, or was."""
        ...

    def availability(self, agent: str) -> Availability: ...
