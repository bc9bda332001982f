"""Who may call the authority (03 §3, CRED-1..CRED-2): approvers, and the submitters it authorised.

A :class:`Principal` is made at the edge that authenticated the caller (cookie, bearer token, or
the in-process host); a :class:`Submitter` is one conversation's submission token and the layer
frozen for it when it was registered.
"""

from __future__ import annotations

from dataclasses import dataclass

from clauz3.approvals.layers import AuthorisedLayer

STANDALONE = "standalone"  # internal key of the one submitter of a standalone service


@dataclass(frozen=True)
class Principal:
    """Who is calling: an approver (cookie or bearer) or the submitter of one conversation."""

    kind: str  # "approver" | "submitter"
    via: str  # "cookie" | "bearer" | "in_process"
    conversation_id: str | None = None
    submitter_key: str | None = None

    @property
    def is_approver(self) -> bool:
        return self.kind == "approver"


APPROVER_IN_PROCESS = Principal("approver", "in_process")


@dataclass
class Conversation:
    """A registered submitter: its key, token and authorised layer; ``paused`` suppresses auto-approval."""

    key: str
    conversation_id: str | None
    token: str
    layer: AuthorisedLayer
    paused: bool = False


def submitter_key(conversation_id: str | None) -> str:
    return conversation_id if conversation_id is not None else STANDALONE
