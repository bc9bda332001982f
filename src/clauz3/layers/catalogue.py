"""The library catalogue (05 SRC-4, SRC-5) and its query order (SRC-6).

Built from files only: bundled stdlib, the curated registry (with ``catalog/`` metadata of remote
sources when cached), global copies and the project's installed and authored domains. It never
uses the network, clones, imports or runs library code.
"""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path
from typing import Any

from clauz3.language._layer_hash import TreeHashError, domain_tree_hash
from clauz3.layers.catalogue_cache import read_cached
from clauz3.layers.discovery import domains_in
from clauz3.layers.inventory import ORIGIN, PresentDomain, present_domains
from clauz3.layers.liberrors import LibraryError
from clauz3.layers.locations import Target, data_dir
from clauz3.layers.manifest import ManifestError, load_manifest, parse_manifest_text
from clauz3.layers.mockscan import scan_mocks
from clauz3.layers.requirements import requirement_lines
from clauz3.layers.sources import parse_source, stdlib_names, stdlib_root

UNAVAILABLE = "Description unavailable until this library is reviewed for installation."
FIELDS = ("source", "title", "description", "domains", "dependencies", "requirements", "url", "visibility",
          "installed", "origin", "modified", "mock", "install_command", "manifests")


def load_registry(text: str | None = None) -> list[str]:
    """``clauz3/data/library_registry.yaml``: only ``sources:``, unique strings (MAN-4)."""
    display = "clauz3/data/library_registry.yaml"
    if text is None:
        text = resources.files("clauz3").joinpath("data", "library_registry.yaml").read_text("utf-8")
    try:
        data, _marks = parse_manifest_text(text, display)
    except ManifestError as exc:
        raise LibraryError(str(exc), "invalid_library") from None
    if not isinstance(data, dict) or set(data) != {"sources"}:
        raise LibraryError(f"invalid registry {display}: must hold only `sources:`", "invalid_library")
    sources = data["sources"]
    if not isinstance(sources, list) or not all(isinstance(s, str) and s for s in sources):
        raise LibraryError(f"invalid registry {display}: sources must be a list of strings", "invalid_library")
    if len(set(sources)) != len(sources):
        raise LibraryError(f"invalid registry {display}: duplicate source", "invalid_library")
    return list(sources)


def _record(source: str, visibility: str, domains: list[str], manifests: dict[str, dict[str, Any] | None],
            package: dict[str, Any] | None, *, description: str | None = None) -> dict[str, Any]:
    titles = [m["title"] for m in manifests.values() if m]
    summaries = [m["summary"] for m in manifests.values() if m]
    deps: list[str] = []
    reqs: list[str] = []
    docs = [package.get("documentation")] if package else []
    for part in [package, *manifests.values()]:
        for line in requirement_lines((part or {}).get("requirements")):
            if line not in reqs:
                reqs.append(line)
    for m in manifests.values():
        deps += [d for d in (m or {}).get("dependencies", []) if d not in deps]
        docs.append((m or {}).get("documentation"))
    if description is None:
        description = " ".join(summaries) if summaries else "(no manifest)"
    return {
        "source": source,
        "title": (package or {}).get("title") or (", ".join(titles) if titles else ", ".join(domains)),
        "description": description,
        "domains": domains,
        "dependencies": deps,
        "requirements": reqs,
        "url": next((d for d in docs if d), None),
        "visibility": visibility,
        "installed": False,
        "origin": None,
        "modified": False,
        "mock": None,
        "install_command": f"clauz3 install {source}",
        "manifests": manifests,
    }


def _read_folder(root: Path, source: str) -> tuple[list[str], dict[str, dict[str, Any] | None], dict[str, Any] | None]:
    names = [d.name for d in domains_in(root)]
    manifests: dict[str, dict[str, Any] | None] = {}
    for n in names:
        path = root / "tools" / n / "clauz3.yaml"
        try:
            manifests[n] = load_manifest(path, kind="domain", domain=n) if os.path.lexists(path) else None
        except ManifestError:
            manifests[n] = None
    package = None
    if os.path.lexists(root / "clauz3.yaml"):
        try:
            package = load_manifest(root / "clauz3.yaml", kind="package")
        except ManifestError:
            package = None
    return names, manifests, package


def _stdlib_record(name: str) -> dict[str, Any] | None:
    root = stdlib_root() / name
    names, manifests, package = _read_folder(root, f"stdlib:{name}")
    if not names:
        return None
    rec = _record(f"stdlib:{name}", "bundled", names, manifests, package)
    rec["mock"] = scan_mocks([root / "tools" / n / "trusted" for n in names]).kind
    return rec


def _remote_record(source: str, data: Path) -> dict[str, Any]:
    cached = read_cached(data, source)
    try:
        url = parse_source(source).web_url
    except LibraryError:
        url = None
    if cached is None:
        rec = _record(source, "repository", [], {}, None, description=UNAVAILABLE)
    else:
        domains = sorted(cached["domains"])
        rec = _record(source, "repository", domains, cached["domains"], None)
    rec["url"] = url or rec["url"]
    return rec


def _modified(p: PresentDomain) -> bool:
    if not p.origin or not isinstance(p.origin.get("tree_sha256"), str):
        return False
    try:
        return domain_tree_hash(p.domain_dir, exclude=(ORIGIN,)) != p.origin["tree_sha256"]
    except (TreeHashError, OSError):
        return True


def _copies(present: dict[str, PresentDomain], visibility: str, *, global_store: bool) -> list[dict[str, Any]]:
    groups: dict[str, list[PresentDomain]] = {}
    for p in present.values():
        key = f"global:{p.name}" if global_store else p.source
        groups.setdefault(key, []).append(p)
    out = []
    for source, members in groups.items():
        names = sorted(m.name for m in members)
        manifests = {m.name: m.manifest for m in members}
        rec = _record(source, visibility, names, manifests, None)
        origins = sorted({m.origin["source"] for m in members if m.origin})
        rec["origin"] = origins[0] if origins else None
        rec["modified"] = any(_modified(m) for m in members)
        rec["mock"] = scan_mocks([m.trusted_root for m in members]).kind
        rec["installed"] = not global_store
        if source.startswith("project:"):
            rec["install_command"] = None
        out.append(rec)
    return out


def build_catalogue(project: Path | None, *, data: Path | None = None) -> list[dict[str, Any]]:
    """Every SRC-5 record, sorted by source; project copies replace entries for the same domains."""
    data = data or data_dir()
    records: dict[str, dict[str, Any]] = {}
    names = stdlib_names()
    for name in names:
        rec = _stdlib_record(name)
        if rec:
            records[rec["source"]] = rec
    for source in load_registry():
        if source in records or source.startswith("stdlib:") or source in names:
            continue
        records[source] = _remote_record(source, data)
    for rec in _copies(present_domains(Target.for_global(data)), "global", global_store=True):
        records[rec["source"]] = rec
    project_domains: set[str] = set()
    if project is not None:
        present = present_domains(Target.for_project(project, data))
        project_domains = set(present)
        copies = _copies(present, "project", global_store=False)
        for rec in copies:
            records.pop(rec["source"], None)
        records = {k: r for k, r in records.items() if not (r["domains"] and set(r["domains"]) <= project_domains)}
        for rec in copies:
            records[rec["source"]] = rec
    for rec in records.values():
        if rec["visibility"] != "project":
            rec["installed"] = bool(rec["domains"]) and set(rec["domains"]) <= project_domains
    return [records[k] for k in sorted(records)]


def _haystack(rec: dict[str, Any]) -> str:
    summaries = [m.get("summary", "") for m in rec["manifests"].values() if m]
    parts = [rec["source"], *rec["domains"], rec["title"], *summaries, rec["description"], *rec["requirements"]]
    return "\n".join(parts).lower()


def query_catalogue(records: list[dict[str, Any]], terms: list[str]) -> list[dict[str, Any]]:
    """SRC-6: every term matches; exact domain or stdlib-name match first, then title match; ties by source."""
    terms = [t.lower() for t in terms if t.strip()]
    hits = [r for r in records if all(t in _haystack(r) for t in terms)]

    def rank(r: dict[str, Any]) -> tuple[int, str]:
        names = {d.lower() for d in r["domains"]}
        if r["source"].startswith("stdlib:"):
            names.add(r["source"][len("stdlib:") :].lower())
        if terms and any(t in names for t in terms):
            return 0, r["source"]
        if terms and any(t in r["title"].lower() for t in terms):
            return 1, r["source"]
        return 2, r["source"]

    return sorted(hits, key=rank)


def mock_line(kind: str | None) -> str | None:
    return {"mock": "🧪 Mock", "mixed": "🧪 Mixed", "unmarked": "Undeclared"}.get(kind or "")


def render_text(rec: dict[str, Any]) -> list[str]:
    state = "installed" if rec["installed"] else "not installed"
    lines = [f"{rec['source']} [{rec['visibility']}; {state}]"]
    if rec["description"]:
        lines.append(f"  {rec['description']}")
    if rec["dependencies"]:
        lines.append("  Depends on: " + ", ".join(rec["dependencies"]))
    if rec["requirements"]:
        lines.append("  Requires: " + "; ".join(rec["requirements"]))
    if rec["url"]:
        lines.append(f"  Source: {rec['url']}")
    if rec["origin"] and rec["origin"] != rec["source"]:
        lines.append(f"  Copied from: {rec['origin']}")
    if rec["modified"]:
        lines.append("  Modified locally")
    if mark := mock_line(rec["mock"]):
        lines.append(f"  {mark}")
    if not rec["installed"] and rec["install_command"]:
        lines.append(f"  Install with: {rec['install_command']}")
    return lines
