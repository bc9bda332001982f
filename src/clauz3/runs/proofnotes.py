"""What the worker says of a proof that did not pass: the message, the open obligation, the card's sentence.

Read from the typed entry (:class:`clauz3.prover.entry.ProofEntry`); what leaves the worker (the
``obligation`` of a result, 03 SNAP-1) is the obligation's §4.5 JSON.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from clauz3.prover.entry import JsonObject, ProofEntry
    from clauz3.prover.pipeline import ProofOutcome, ProofRequest


def first_open(entry: ProofEntry) -> JsonObject | None:
    """The first obligation not proved, as the result's ``obligation`` object."""
    ob = entry.first_open()
    return ob.to_json() if ob is not None else None


def proof_text(entry: ProofEntry) -> str:
    try:
        from clauz3.prover.render import render_entry

        return render_entry(entry)
    except ImportError:
        return "".join(f"{entry.target}: {o.conclusion} {o.description}\n" for o in entry.obligations)


def failure_message(entry: ProofEntry) -> str:
    if entry.target_missing:
        return f"target {entry.target} is missing from the program"
    ob = entry.first_open()
    if ob is None:
        return "the proof did not succeed"
    why = f": {ob.result}" if ob.result else ""
    from clauz3.prover.render import subject

    text = f"not proved ({ob.conclusion}) {subject(ob)}{why}"  # library.helper(…), never the alias
    cex = ob.counterexample
    if ob.conclusion == "violated" and cex is not None:
        from clauz3.prover.render import counterexample_lines

        # The record keeps no counterexample object (SNAP-1), so its lines travel in the message: the
        # card and the agent both see what execution breaks the guarantee (issue 13). "why" is said above.
        text += "\n" + "\n".join(x for x in counterexample_lines(cex) if not x.startswith("why: "))
    return text[:1000]


def refusal_summary(path: Path, req: ProofRequest, entry: ProofEntry, outcome: ProofOutcome,
                    source: str) -> dict[str, Any] | None:
    """Issue 12: the refused proof as one sentence and the line that breaks it (never fails the run)."""
    from clauz3.approvals.summary import guarantee_text, refusal_record
    from clauz3.language.context import domain_of

    ob = entry.first_open()
    if ob is None:
        return None
    try:
        program, layer = outcome.program, outcome.layer
        if program is None or layer is None:  # a cached verdict: check again (cheap) for the guarantees' own sentences
            from clauz3.language import check_program
            from clauz3.prover.pipeline import layer_for

            layer = layer_for(req.trusted_roots, req.import_roots)
            program = check_program(path, layer, req.target, list(req.allow_imports))
        sentence = None
        if ob.kind == "guarantee":
            for g in program.guarantees:
                if g.expression == ob.expression and g.line == ob.line:
                    meta = layer.contracts.get(g.helper)
                    template = getattr(meta, "description_template", None)
                    sentence = guarantee_text(template, dict(g.args), g.description, g.expression)[0]
                    break
        mock_of = {e.short: bool(e.mock) for e in program.effects.values()}
        domains = {e.short: domain_of(e.name.rsplit(".", 1)[0]) or "" for e in program.effects.values()}
        return refusal_record(ob.to_json(), sentence, mock_of, domains, source)
    except Exception:  # the refusal itself stands; only its sentence is missing
        return None
