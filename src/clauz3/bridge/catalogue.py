"""The ``tools`` and ``libraries`` results (03 §16, 05 SRC-5/6), from snapshots taken at start.

Everything is read from source with the AST scanner and from manifests: the bridge never imports
trusted code (MCP-3). A library change after start is invisible until the host rebuilds the bridge
(05 SEL-12), which is exactly what an agent's tools listing must reflect.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from clauz3.layers.catalog_items import render_params
from clauz3.layers.scan import scan_root

NO_TOOLS = "No installed tools match."
NO_LIBRARIES = "No libraries match. Run clauz3 libraries with no query to see all."
MAX_SOURCE_CHARS = 8000


@dataclass(frozen=True)
class Entry:
    domain: str
    module: str
    kind: str  # effect | contract | row
    name: str
    signature: str
    summary: str
    source: str

    @property
    def import_line(self) -> str:
        return f"from {self.module} import {self.name}"

    def to_json(self) -> dict[str, str]:
        return {"domain": self.domain, "module": self.module, "kind": self.kind, "name": self.name,
                "signature": self.signature, "summary": self.summary, "import": self.import_line}

    def matches(self, terms: list[str]) -> bool:
        hay = " ".join([self.domain, self.module, self.kind, self.name, f"{self.module}.{self.name}",
                        self.summary]).lower()
        return all(t in hay for t in terms)

    def api_lines(self) -> list[str]:
        head = f"{self.kind} {self.module}.{self.name}({self.signature})" if self.kind != "row" \
            else f"row {self.module}.{self.name}"
        lines = [head, f"  import: {self.import_line}"]
        if self.summary:
            lines.append(f"  {self.summary}")
        return lines


def _segment(source: str, node: ast.AST) -> str:
    lines = source.splitlines()
    start = min([getattr(node, "lineno", 1)] + [d.lineno for d in getattr(node, "decorator_list", [])])
    end = getattr(node, "end_lineno", None) or start
    text = "\n".join(lines[start - 1:end])
    return text if len(text) <= MAX_SOURCE_CHARS else text[:MAX_SOURCE_CHARS] + "\n# … (truncated)"


def _is_row(cls: ast.ClassDef) -> bool:
    for base in cls.bases:
        name = base.attr if isinstance(base, ast.Attribute) else base.id if isinstance(base, ast.Name) else ""
        if name == "Row":
            return True
    return False


def _row_fields(cls: ast.ClassDef) -> str:
    fields = [f"{s.target.id}: {ast.unparse(s.annotation)}" for s in cls.body
              if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)]
    return ", ".join(fields)


def snapshot_tools(trusted_roots: Sequence[Path], warn: Callable[[str], None] | None = None) -> list[Entry]:
    """Effects, contract helpers and row schemas of every root, in root order (source order inside)."""
    entries: list[Entry] = []
    for root in trusted_roots:
        scan = scan_root(Path(root))
        for error in scan.errors:
            if warn is not None:
                warn(error)
        domain = scan.domain
        for module in scan.modules:
            for e in module.effects:
                entries.append(Entry(domain, e.module, "effect", e.name, render_params(e.params)
                                     + (f" -> {e.returns}" if e.returns else ""), e.description or "",
                                     _segment(module.source, e.node)))
            for h in module.helpers:
                entries.append(Entry(domain, h.module, "contract", h.name, render_params(h.params),
                                     h.description or "", _segment(module.source, h.node)))
            for cls in module.classes.values():
                if _is_row(cls):
                    doc = (ast.get_docstring(cls) or "").strip().split("\n\n")[0].replace("\n", " ")
                    entries.append(Entry(domain, module.module, "row", cls.name, _row_fields(cls), doc[:200],
                                         _segment(module.source, cls)))
    return entries


def tools_result(entries: Sequence[Entry], query: str, view: str) -> tuple[str, dict[str, Any]]:
    terms = [t.lower() for t in query.split()]
    chosen = [e for e in entries if e.matches(terms)]
    note = ("Effects and contracts of this conversation's libraries (read from source; use only these). "
            "Import effects and contracts from tools.<domain>.trusted.")
    if not chosen:
        text = f"{note}\n{NO_TOOLS}"
    elif view == "source":
        blocks = [f"# {e.kind} {e.module}.{e.name}\n{e.source}" for e in chosen]
        text = note + "\n\n" + "\n\n".join(blocks)
    else:
        text = note + "\n\n" + "\n".join(line for e in chosen for line in e.api_lines())
    return text, {"view": view, "entries": [e.to_json() for e in chosen]}


# ------------------------------------------------------------------------------------ libraries

@dataclass(frozen=True)
class Library:
    domain: str
    title: str
    summary: str
    installed: bool
    source: str
    visibility: str

    @property
    def install_command(self) -> str:
        return f"clauz3 install {self.source}"

    def to_json(self) -> dict[str, Any]:
        return {"domain": self.domain, "title": self.title, "summary": self.summary, "installed": self.installed,
                "source": self.source, "install_command": self.install_command}

    def matches(self, terms: list[str]) -> bool:
        hay = " ".join([self.source, self.domain, self.title, self.summary]).lower()
        return all(t in hay for t in terms)

    def lines(self) -> list[str]:
        state = "installed" if self.installed else "not installed"
        out = [f"{self.source} [{self.visibility}; {state}]"]
        if self.summary:
            out.append(f"  {self.summary}")
        if not self.installed:
            out.append(f"  Install with: {self.install_command}")
        return out


def _manifest_text(manifest: dict[str, Any] | None, domain: str) -> tuple[str, str]:
    manifest = manifest or {}
    title = manifest.get("title") if isinstance(manifest.get("title"), str) else None
    summary = manifest.get("summary") if isinstance(manifest.get("summary"), str) else None
    description = manifest.get("description") if isinstance(manifest.get("description"), str) else None
    return title or domain, (summary or description or "(no manifest)").strip()[:500]


def snapshot_libraries(project: Path, warn: Callable[[str], None] | None = None) -> list[Library]:
    """Project domains (installed and authored) plus bundled stdlib entries; files only, no network."""
    from clauz3.layers.discovery import domains_in
    from clauz3.layers.inventory import _load_domain_manifest, present_domains
    from clauz3.layers.locations import Target
    from clauz3.layers.sources import stdlib_names, stdlib_root

    out: dict[str, Library] = {}
    try:
        present = present_domains(Target.for_project(project), warn)
    except Exception as exc:  # an unreadable project tree still leaves the stdlib catalogue
        if warn is not None:
            warn(f"cannot read the project's libraries: {exc}")
        present = {}
    for name, dom in present.items():
        title, summary = _manifest_text(dom.manifest, name)
        out[name] = Library(name, title, summary, True, dom.source, "project")
    for std in stdlib_names():
        base = stdlib_root() / std
        for d in domains_in(base):
            if d.name in out:
                continue
            manifest, _ = _load_domain_manifest(base / "tools" / d.name, d.name, f"stdlib:{std}/{d.name}")
            title, summary = _manifest_text(manifest, d.name)
            out[d.name] = Library(d.name, title, summary, False, f"stdlib:{std}", "bundled")
    return sorted(out.values(), key=lambda lib: (not lib.installed, lib.source, lib.domain))


def libraries_result(libraries: Sequence[Library], query: str) -> tuple[str, dict[str, Any]]:
    terms = [t.lower() for t in query.split()]
    chosen = [lib for lib in libraries if lib.matches(terms)]
    exact = [lib for lib in chosen if any(t == lib.domain.lower() for t in terms)]
    chosen = exact + [lib for lib in chosen if lib not in exact]
    note = ("Read-only catalogue: only the user can install libraries (with the command shown); "
            "never install code yourself.")
    if not chosen:
        return f"{note}\n{NO_LIBRARIES}", {"libraries": []}
    text = note + "\n\n" + "\n".join(line for lib in chosen for line in lib.lines())
    return text, {"libraries": [lib.to_json() for lib in chosen]}
