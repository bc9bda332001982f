"""Trusted items of selected roots as listed by ``clauz3 tools`` (01 TOOLS-1, TOOLS-2), from source only."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from clauz3.layers.scan import Effect, Helper, Param, RootScan, scan_root


@dataclass
class ToolItem:
    kind: str  # "effect" or "contract"
    module: str
    name: str
    params: list[Param]
    returns: str | None
    mock: bool
    description: str | None
    preconditions: list[tuple[str, str | None]]
    path: Path
    line: int
    domain: str = ""
    _haystack: str = field(default="", repr=False)

    def signature(self) -> str:
        return render_params(self.params)

    def header(self) -> str:
        mock = " [mock]" if self.mock else ""
        return f"{self.kind} {self.module}:{self.name}({self.signature()}){mock}"

    def lines(self) -> list[str]:
        out = [self.header()]
        if self.description:
            out.append(f"  {self.description}")
        if self.kind == "effect":
            out.append(f"  returns: {self.returns if self.returns is not None else '(missing)'}")
            for predicate, message in self.preconditions:
                out.append(f"  requires: {predicate}" + (f" ({message})" if message else ""))
        return out

    def matches(self, terms: list[str]) -> bool:
        hay = " ".join([self.kind, f"{self.module}:{self.name}", f"{self.module}.{self.name}", self.name,
                        self.description or ""]).lower()
        return all(t.lower() in hay for t in terms)

    def to_json(self, cwd: Path) -> dict[str, Any]:
        try:
            shown = str(self.path.relative_to(cwd))
        except ValueError:
            shown = str(self.path)
        return {
            "kind": self.kind,
            "module": self.module,
            "name": self.name,
            "params": [{"name": p.name, "annotation": p.annotation, "default": p.default, "kind": p.kind}
                       for p in self.params],
            "returns": self.returns,
            "mock": self.mock,
            "description": self.description,
            "preconditions": [{"predicate": pr, "message": msg} for pr, msg in self.preconditions],
            "source": {"path": shown, "line": self.line},
        }


def render_params(params: list[Param]) -> str:
    """A signature as written: ``a: str, /, b: int = 1, *, c: bool = True``."""
    parts: list[str] = []
    seen_star = False
    for i, p in enumerate(params):
        if p.kind == "keyword_only" and not seen_star:
            parts.append("*")
            seen_star = True
        text = p.name
        if p.kind == "var_positional":
            text, seen_star = "*" + p.name, True
        elif p.kind == "var_keyword":
            text = "**" + p.name
        if p.annotation is not None:
            text += f": {p.annotation}"
        if p.default is not None:
            text += f" = {p.default}" if p.annotation is not None else f"={p.default}"
        parts.append(text)
        nxt = params[i + 1] if i + 1 < len(params) else None
        if p.kind == "positional_only" and (nxt is None or nxt.kind != "positional_only"):
            parts.append("/")
    return ", ".join(parts)


def _effect_item(e: Effect, domain: str) -> ToolItem:
    pre = [(c.body_source or c.source or "?", c.message) for c in e.conditions if c.kind == "requires"]
    return ToolItem("effect", e.module, e.name, e.params, e.returns, e.mock, e.description, pre, e.path, e.line, domain)


def _helper_item(h: Helper, domain: str) -> ToolItem:
    return ToolItem("contract", h.module, h.name, h.params, None, False, h.description, [], h.path, h.line, domain)


def items_of(scan: RootScan) -> list[ToolItem]:
    """Effects first, then helpers, each in source order (files in sorted path order)."""
    return [_effect_item(e, scan.domain) for e in scan.effects] + [_helper_item(h, scan.domain) for h in scan.helpers]


def list_tools(trusted_roots: list[Path]) -> tuple[list[ToolItem], list[str]]:
    """Items grouped by domain in root order, plus scan errors (unreadable or unparsable files)."""
    items: list[ToolItem] = []
    errors: list[str] = []
    for root in trusted_roots:
        scan = scan_root(root)
        errors.extend(scan.errors)
        items.extend(items_of(scan))
    return items, errors
