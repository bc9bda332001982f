"""The "Effects and contracts" and "Source code" sections of a review, from source alone (05 INS-6)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from clauz3.layers.catalog_items import render_params
from clauz3.layers.scan import scan_root
from clauz3.layers.treecopy import FileEntry


def domain_api(trusted_root: Path) -> dict[str, Any]:
    """Effects and contract helpers with signatures and docstrings, by AST (never imported)."""
    scan = scan_root(trusted_root)
    effects = [{"name": e.name, "module": e.module, "signature": f"{e.name}({render_params(e.params)})"
                + (f" -> {e.returns}" if e.returns else ""), "docstring": e.docstring, "status": e.status}
               for e in scan.effects]
    contracts = [{"name": h.name, "module": h.module, "signature": f"{h.name}({render_params(h.params)})",
                  "description": h.description, "docstring": h.docstring} for h in scan.helpers]
    return {"effects": effects, "contracts": contracts, "errors": list(scan.errors)}


def domain_sources(files: list[FileEntry]) -> dict[str, str]:
    """File texts by relative path; binary files are described, not shown."""
    out: dict[str, str] = {}
    for f in files:
        try:
            out[f.rel] = f.data.decode("utf-8")
        except UnicodeDecodeError:
            out[f.rel] = f"(binary file, {len(f.data)} bytes)"
    return out
