"""``clauz3/libraries``: changing a conversation's library selection (05 SEL-10..14, simplified).

Domains are reduced to those present in the project. Before the first message any change applies
at once; after it, removals apply at once and anything added needs ``confirm: true`` (else
``clauz3/confirm_libraries``), which pauses automatic approvals for the rest of the conversation.
Applying restarts the agent so the bridge gets the new roots.
"""

from __future__ import annotations

from typing import Any

from .notices import notice

CONFIRM_TEXT = ("Earlier messages may hold text from files or pages the agent read, and added library code can steer "
                "the agent, so automatic approvals stop for the rest of this conversation.")


def note(added: list[str], removed: list[str]) -> str:
    parts = []
    if added:
        parts.append("added " + ", ".join(added))
    if removed:
        parts.append("removed " + ", ".join(removed))
    return ("[clauz3] Library change since your last message — " + "; ".join(parts)
            + ". Your earlier tools listing is stale: call tools again before you write another program.")


async def apply_libraries(host: Any, params: dict[str, Any]) -> None:
    domains = params.get("domains")
    if not isinstance(domains, list) or not all(isinstance(d, str) for d in domains):
        host.refuse("bad_frame")
        return
    if host._stale(params):
        return
    if not host.idle:
        host.refuse("busy")
        return
    conv = host.conversation
    present = set(host.domains())
    chosen = sorted(set(domains) & present)
    current = sorted(conv.saved.get("libraries", []))
    added = [d for d in chosen if d not in current]
    removed = [d for d in current if d not in chosen]
    if not added and not removed and not conv.saved.get("libraries_changed"):
        conv.changed()
        return
    widening = bool(added) and conv.turn >= 1
    if widening and params.get("confirm") is not True:
        host.publisher.send({"method": "clauz3/confirm_libraries", "params": {
            "conversation_id": conv.id, "domains": chosen, "added": added, "removed": removed, "updated": False,
            "text": f"Add {', '.join(added)} to this conversation? {CONFIRM_TEXT}"}})
        return
    running = conv.client is not None
    await conv.end_agent()
    conv.saved["libraries"] = chosen
    conv.saved["libraries_changed"] = False
    if widening:
        conv.saved["approvals_paused"] = True
    if conv.turn >= 1:
        conv.saved.setdefault("host_notes", []).append(note(added, removed))
        conv.retain({"method": "clauz3/libraries_changed", "params": {
            "added": added, "removed": removed, "updated": False,
            "paused": conv.saved.get("approvals_paused") is True, "turn": conv.turn}})
    conv.save_state()
    conv.status = "stopped"
    if running or conv.turn == 0:
        conv.ensure_agent()
    else:
        host.publisher.send(notice("libraries_changed", "Libraries updated for this conversation.", level="info"))
