"""PCLI-2 text rendering of one §4.5 entry (works on fresh and cached entries alike)."""

from __future__ import annotations

from typing import Any


def render_entry(entry: dict[str, Any]) -> str:
    target = entry.get("target", "main")
    obligations = entry.get("obligations") or []
    if not obligations:
        return f"{target}: proved nothing to prove\n"
    lines: list[str] = []
    for o in obligations:
        line = f"{target}: {o['conclusion']} {o['description']}"
        if o["conclusion"] == "unknown" and o.get("reason"):
            line += f" ({o['reason']}: {o.get('result') or o['reason']})"
        lines.append(line)
        cex = o.get("counterexample")
        if o["conclusion"] == "violated" and cex:
            lines.extend("  " + x for x in counterexample_lines(cex))
    return "\n".join(lines) + "\n"


def counterexample_lines(cex: dict[str, Any]) -> list[str]:
    out = [f"why: {cex.get('why', '')}"]
    if cex.get("inputs_text"):
        out.append(f"inputs: {cex['inputs_text']}")
    returns = cex.get("returns") or []
    if returns:
        out.append("trusted results: " + "; ".join(r["text"] for r in returns))
    path = cex.get("path") or []
    if path:
        parts = []
        for p in path:
            if "iterations" in p:
                parts.append(f"line {p['line']} {p['condition']}: {p['iterations']} iterations")
            else:
                at = f" (iteration {', '.join(str(k) for k in p['iteration'])})" if p.get("iteration") else ""
                parts.append(f"line {p['line']} {p['condition']}{at}: {'true' if p['taken'] else 'false'}")
        if cex.get("path_more"):
            parts.append(f"… and {cex['path_more']} more")
        out.append("path: " + "; ".join(parts))
    trace = cex.get("trace") or []
    if trace:
        text = "; ".join(f"#{t['index']} line {t['line']} {t['call']}" for t in trace)
        if cex.get("trace_more"):
            text += f"; … and {cex['trace_more']} more"
        out.append("effects: " + text)
    return out
