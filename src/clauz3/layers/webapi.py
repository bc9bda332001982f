"""The Python side of the browser's Libraries routes (05 §6.6); the web host adds auth, Origin and JSON.

Each function returns the route's JSON body or raises :class:`LibraryError`, whose ``code`` (mapped to
an HTTP status by the web edge) and message give ``{"error": {"code", "message"}}`` (``exc.to_json()``).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from pathlib import Path
from typing import Any

from clauz3.layers.liberrors import LibraryError
from clauz3.layers.locations import Target

ACTIONS = ("install", "update", "remove")


def libraries_snapshot(project: Path, *, active: Sequence[str] = (), busy: bool = False,
                       data: Path | None = None) -> dict[str, Any]:
    """``GET /api/workspace/libraries`` → ``{catalog, installed, selected, active, mock_declarations, review, busy}``."""
    from clauz3.layers.catalogue import build_catalogue
    from clauz3.layers.inventory import present_domains
    from clauz3.layers.mockscan import scan_mocks
    from clauz3.layers.review import current_review
    from clauz3.layers.selection import defaults_for_new_conversation, read_defaults

    target = Target.for_project(project, data)
    present = present_domains(target)
    saved = read_defaults(project, data)
    selected = saved if saved is not None else defaults_for_new_conversation(project, data)[0]
    review = current_review(target)
    return {
        "catalog": build_catalogue(project, data=target.data),
        "installed": [{"domain": p.name, "tree": p.tree, "source": p.source,
                       "revision": (p.origin or {}).get("revision", "")} for p in present.values()],
        "selected": selected,
        "active": sorted(active),
        "mock_declarations": {p.name: scan_mocks([p.trusted_root]).to_json() for p in present.values()},
        "review": review,
        "busy": busy,
    }


def _catalogued(project: Path, source: str, data: Path | None) -> dict[str, Any]:
    from clauz3.layers.catalogue import build_catalogue

    for rec in build_catalogue(project, data=data):
        if rec["source"] == source:
            return rec
    raise LibraryError(f"{source} is not in this workspace's catalogue", "unknown_source")


def inspect_source(project: Path, source: str, data: Path | None = None) -> dict[str, Any]:
    """``POST …/inspect {source}`` → ``{source, api, source_code, mock_declarations}`` of the installed copy."""
    from clauz3.layers.inventory import present_domains
    from clauz3.layers.mockscan import scan_mocks
    from clauz3.layers.review_api import domain_api, domain_sources
    from clauz3.layers.treecopy import read_domain

    rec = _catalogued(project, source, data)
    present = present_domains(Target.for_project(project, data))
    domains = [d for d in rec["domains"] if d in present]
    if not domains:
        raise LibraryError(f"{source} is not installed in this project", "refused")
    return {
        "source": source,
        "api": {d: domain_api(present[d].trusted_root) for d in domains},
        "source_code": {d: domain_sources(read_domain(present[d].domain_dir, source)) for d in domains},
        "mock_declarations": {d: scan_mocks([present[d].trusted_root]).to_json() for d in domains},
    }


def prepare(project: Path, action: str, *, source: str | None = None, domain: str | None = None,
            data: Path | None = None) -> dict[str, Any]:
    """``POST …/prepare {action, source?, domain?}`` → the INS-6 review record."""
    from clauz3.layers.inventory import present_domains
    from clauz3.layers.review import prepare_install, prepare_remove

    if action not in ACTIONS:
        raise LibraryError(f"unknown action {action!r}; expected install, update or remove", "invalid_request")
    target = Target.for_project(project, data)
    if action == "remove":
        if not isinstance(domain, str) or not domain:
            raise LibraryError("remove needs a domain", "invalid_request")
        return prepare_remove(target, domain)
    if action == "update" and source is None and isinstance(domain, str):
        p = present_domains(target).get(domain)
        if p is None or p.origin is None:
            raise LibraryError(f"{domain} is not installed here; there is nothing to update", "refused")
        source = p.origin["source"]
    if not isinstance(source, str) or not source:
        raise LibraryError(f"{action} needs a source", "invalid_request")
    rec = _catalogued(project, source, data)
    if rec["source"].startswith("project:"):
        raise LibraryError(f"{source} is authored in this project; there is nothing to install", "refused")
    return prepare_install(target, source, action=action, cwd=target.project)


def apply(project: Path, review_id: str, *, busy: bool = False, active_domains: Collection[str] = (),
          data: Path | None = None) -> dict[str, Any]:
    """``POST …/apply {id}`` → ``{action, domains, backup}``."""
    from clauz3.layers.apply import apply_review

    return apply_review(Target.for_project(project, data), review_id, busy=busy,
                        active_domains=active_domains).to_json()


def select(project: Path, domains: Sequence[str], data: Path | None = None) -> dict[str, Any]:
    """``POST …/select {domains}`` → ``{selected}`` (SEL-3)."""
    from clauz3.layers.selection import save_defaults

    if not isinstance(domains, list) or not all(isinstance(d, str) for d in domains):
        raise LibraryError("domains must be a list of names", "invalid_request")
    return {"selected": save_defaults(project, domains, data)}


def discard(project: Path, data: Path | None = None) -> dict[str, Any]:
    """``POST …/discard {}`` → ``{ok: true}``."""
    from clauz3.layers.review import discard_review

    discard_review(Target.for_project(project, data))
    return {"ok": True}
