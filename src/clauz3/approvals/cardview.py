"""The one rendering of a card's summary and warnings (issue 19), for every page that shows a card.

The chat card (``sessions/web/static/cardview.js``) and the standalone approval page (:mod:`ui`) used to
each pick what to show from ``presentation.summary``, and drifted: the standalone page lost warnings
the chat card showed. Now :func:`summary_view` decides, once, in order, every line a person sees about
what the program will do — plan sentences and their long lists, the warnings (the card's "Look closely"
and each guarantee's own), the verified limits, one line per library, and why no automatic decision
was made — and both pages print these items as they come, with no choice of their own. Items:

``{"kind": "plan"|"warning"|"heading"|"guarantee"|"empty"|"library"|"note", "text": str, …}`` plus
``blocks`` (long lists/texts, whole) on plan and guarantee items, ``warnings`` on a guarantee, and
``mock``/``guaranteed`` on a library. Texts are the authority's own, already revealed (issue 11 §6).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

LOOK_CLOSELY = "Look closely: a value on this card {}. Such characters are shown as [U+…] codes."
NO_GUARANTEES = "The program states no guarantees."


def warning_text(warnings: Sequence[str]) -> str:
    return LOOK_CLOSELY.format("; it ".join(str(w) for w in warnings))


def _blocks(value: Any) -> list[dict[str, Any]]:
    return [dict(b) for b in value or [] if isinstance(b, Mapping)]


def summary_view(summary: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The summary's items, in the order every page shows them."""
    items: list[dict[str, Any]] = []
    plan = summary.get("plan") if isinstance(summary.get("plan"), Mapping) else {}
    assert isinstance(plan, Mapping)
    sentences = [str(x) for x in plan.get("sentences") or []]
    for n, text in enumerate(sentences):
        last = n == len(sentences) - 1
        items.append({"kind": "plan", "text": text, "blocks": _blocks(plan.get("blocks")) if last else []})
    if not sentences and plan.get("blocks"):
        items.append({"kind": "plan", "text": "", "blocks": _blocks(plan.get("blocks"))})
    warnings = [str(w) for w in summary.get("warnings") or []]
    if warnings:
        items.append({"kind": "warning", "text": warning_text(warnings)})
    items.append({"kind": "heading", "text": "Verified limits"})
    guarantees = [g for g in summary.get("guarantees") or [] if isinstance(g, Mapping)]
    for g in guarantees:
        own = [str(w) for w in g.get("warnings") or []]
        items.append({"kind": "guarantee", "text": str(g.get("text") or ""), "blocks": _blocks(g.get("lists")),
                      "warnings": [warning_text(own)] if own else []})
    if not guarantees:
        items.append({"kind": "empty", "text": NO_GUARANTEES})
    items.append({"kind": "heading", "text": "Libraries"})
    for lib in summary.get("libraries") or []:
        if isinstance(lib, Mapping):
            own = [str(w) for w in lib.get("warnings") or []]
            items.append({"kind": "library", "text": str(lib.get("line") or ""), "mock": lib.get("mock"),
                          "guaranteed": bool(lib.get("guaranteed")),
                          "warnings": [warning_text(own)] if own else []})
    return items


def automatic_view(automatic: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """Why no automatic decision was made (issue 19), as note items after the summary."""
    if not isinstance(automatic, Mapping):
        return []
    return [{"kind": "note", "text": str(n.get("text"))} for n in automatic.get("not_decided") or []
            if isinstance(n, Mapping) and n.get("text")]


def refresh(presentation: dict[str, Any]) -> None:
    """Recompute ``presentation.summary.view`` after anything changed the summary (call it last)."""
    summary = presentation.get("summary")
    if isinstance(summary, dict):
        summary["view"] = summary_view(summary)
