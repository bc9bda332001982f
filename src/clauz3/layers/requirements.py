"""Merging package and domain requirements, and their one-line forms (05 MAN-3, SRC-5)."""

from __future__ import annotations

from typing import Any

from clauz3.layers.liberrors import LibraryError


def merge_requirements(parts: list[tuple[str, dict[str, Any] | None]], source: str) -> dict[str, Any]:
    """Package entries first, then each domain's; identical entries merge, conflicting ones fail (MAN-3).

    ``parts`` is ``[(label, requirements or None)]``; the result has only non-empty keys.
    """
    python: list[str] = []
    tools: dict[str, dict[str, Any]] = {}
    setup: dict[str, dict[str, Any]] = {}
    for label, req in parts:
        if not req:
            continue
        for spec in req.get("python", []):
            if spec not in python:
                python.append(spec)
        for key, ident, into in (("tools", "name", tools), ("setup", "id", setup)):
            for entry in req.get(key, []):
                name = entry[ident]
                if name in into and into[name] != entry:
                    raise LibraryError(f"{source}: conflicting requirements.{key} entries for {ident} {name!r} "
                                       f"(in {label})", "invalid_library")
                into[name] = entry
    out: dict[str, Any] = {}
    if python:
        out["python"] = python
    if tools:
        out["tools"] = list(tools.values())
    if setup:
        out["setup"] = list(setup.values())
    return out


def requirement_lines(req: dict[str, Any] | None) -> list[str]:
    """``Python package <spec>``, ``<tool name>: <description>``, ``<Kind>: <title>``."""
    if not req:
        return []
    lines = [f"Python package {spec}" for spec in req.get("python", [])]
    lines += [f"{t['name']}: {t['description']}" for t in req.get("tools", [])]
    lines += [f"{s['kind'].capitalize()}: {s['title']}" for s in req.get("setup", [])]
    return lines
