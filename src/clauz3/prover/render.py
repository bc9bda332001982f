"""PCLI-2 text rendering of one §4.5 entry (works on fresh and cached entries alike)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from clauz3.prover.entry import ObligationRecord, ProofEntry


def render_entry(entry: ProofEntry) -> str:
    """PCLI-2 lines of an entry's obligations (:func:`render_obligations`)."""
    return render_obligations(entry.target, entry.obligations)


def render_obligations(target: str, obligations: Sequence[ObligationRecord]) -> str:
    """PCLI-2 lines; a proof that failed says so first and lists its open checks before the proved ones."""
    if not obligations:
        return f"{target}: proved nothing to prove\n"
    open_ones = [o for o in obligations if not o.proved]
    lines: list[str] = []
    if open_ones:
        lines.append(f"{target}: not proved: {_failed_count(open_ones, len(obligations))}")
    for o in open_ones + [o for o in obligations if o.proved]:
        line = f"{target}: {o.conclusion} {subject(o)}"
        if o.conclusion == "unknown" and o.reason:
            line += f" ({o.reason}: {o.result or o.reason})"
        lines.append(line)
        if o.conclusion == "violated" and o.counterexample:
            lines.extend("  " + x for x in counterexample_lines(o.counterexample))
    return "\n".join(lines) + "\n"


def _failed_count(open_ones: list[ObligationRecord], total: int) -> str:
    noun = "check" if total == 1 else "checks"
    unknown = sum(1 for o in open_ones if o.conclusion == "unknown")
    if unknown == len(open_ones):
        return f"{unknown} of {total} {noun} could not be decided"
    text = f"{len(open_ones)} of {total} {noun} failed"
    if unknown:
        text += f" ({len(open_ones) - unknown} violated, {unknown} could not be decided)"
    return text


def subject(o: ObligationRecord) -> str:
    """A guarantee is named by its library and helper with bound arguments (CON-6), never by the
    program's local alias for the library: a person reads what was promised, not how it was spelled."""
    if o.kind == "guarantee" and o.call:
        return f"guarantee {o.call}"
    return o.description


def counterexample_lines(cex: dict[str, Any]) -> list[str]:
    out = [f"why: {cex.get('why', '')}"]
    if cex.get("inputs_text"):
        out.append(f"inputs: {cex['inputs_text']}")
    returns = cex.get("returns") or []
    if returns:
        out.append("trusted results: " + "; ".join(r["text"] for r in returns))
    path = cex.get("path") or []
    if path:
        parts = [_path_text(p) for p in path]
        if cex.get("path_more"):
            parts.append(f"… and {cex['path_more']} more")
        out.append("path: " + "; ".join(parts))
    trace = cex.get("trace") or []
    if trace:
        pieces: list[str] = []
        previous = 0
        for t in trace:
            index = t.get("index")
            # Calls left out between two shown ones (a breaking call far down the trace).
            if isinstance(index, int) and index > previous + 1 and previous:
                pieces.append("…")
            pieces.append(f"#{index} line {t['line']} {t['call']}")
            previous = index if isinstance(index, int) else previous
        text = "; ".join(pieces)
        if cex.get("trace_more"):
            text += f"; … and {cex['trace_more']} more"
        out.append("effects: " + text)
    return out


def _path_text(p: dict[str, Any]) -> str:
    head = f"line {p['line']} {p['condition']}"
    if "iterations" in p:
        n = p["iterations"]
        runs = p.get("loop_runs")
        noun = "iteration" if n == 1 else "iterations"
        return f"{head}: {n} {noun}" + (f" over {runs} runs of the loop" if runs else "")
    if "evaluations" in p:
        unit = "iteration" if p.get("per_iteration") else "evaluation"
        unit += "" if p["evaluations"] == 1 else "s"
        return f"{head}: true in {p['true_count']} of {p['evaluations']} {unit}"
    at = f" (iteration {', '.join(str(k) for k in p['iteration'])})" if p.get("iteration") else ""
    return f"{head}{at}: {'true' if p['taken'] else 'false'}"
