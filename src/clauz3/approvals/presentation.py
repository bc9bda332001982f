"""Card data built by the authority from the authorised layer (03 §10), never from request text."""

from __future__ import annotations

from typing import Any

from clauz3.approvals import summary
from clauz3.approvals.cardview import refresh
from clauz3.approvals.layerscan import (
    BoundGuarantee,
    LayerScan,
    first_paragraph,
    program_imports,
)
from clauz3.approvals.requests import ApprovalRequest
from clauz3.vocabulary.describe import render_value, reveal

MOCK_NOTICE = "Uses simulated tools. Simulation is declared by the library and is not an isolation guarantee."
UNDECLARED_NOTICE = "Some tools here do nothing, but their author has not declared them as mocks."
NO_POLICIES = "No domain policies applied."
AUTOMATIC_OFF = "Remembered and policy approvals are off for this run: a sandbox protection is missing."
_KIND_TEXT = {
    "mock": "simulated: its author declares that it does nothing real",
    "mixed": "partly simulated: some of its functions act for real",
    "unmarked": "does nothing real, but its author has not declared it a mock",
    "real": "acts for real",
}

_COVERAGE = {
    "required_gap": (3, "red"),
    "silent_gap": (2, "red"),
    "recommended_gap": (1, "amber"),
    "covered": (0, "neutral"),
}



def library_call(bound: BoundGuarantee) -> str | None:
    """01 CON-6: ``email.at_most(count=1)``; ``<org>/<d>`` renders ``<org>.<d>``."""
    if bound.contract is None or bound.args is None:
        return None
    args = ", ".join(f"{name}={reveal(render_value(value, cut=False))[0]}" for name, value in bound.args.items())
    return f"{bound.contract.domain.replace('/', '.')}.{bound.contract.qualname}({args})"


def _contract_entry(bound: BoundGuarantee, scan: LayerScan) -> dict[str, Any]:
    info = bound.contract
    library = None
    description = None
    identity = None
    documentation = None
    if info is not None:
        domain = scan.domains.get(info.domain)
        library = {"domain": info.domain, "title": domain.title if domain else info.domain,
                   "mock": domain.mock if domain else "unmarked"}
        if info.description_template is not None and bound.args is not None:
            description = summary.guarantee_text(info.description_template, bound.args, None, bound.expression,
                                                 end_state=info.end_state)[0]
        if description is None:
            description = first_paragraph(info.docstring)
        identity = {"symbol": info.symbol, "source_file": info.source_file, "source_line": info.source_line,
                    "source_sha256": info.source_sha256, "layer_sha256": scan.layer_sha256,
                    "origin": None, "revision": None}
        documentation = info.docstring
    return {"expression": bound.expression, "call": library_call(bound), "library": library,
            "description": description, "identity": identity, "documentation": documentation}


def coverage_entries(request: ApprovalRequest) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for entry in request.coverage:
        severity, colour = _COVERAGE[entry.status]
        if entry.status == "required_gap":
            label = f"Required guarantee missing: {', '.join(entry.missing_required)} not proved"
        elif entry.status == "silent_gap":
            label = f"No guarantees: the program uses {entry.domain} but states nothing about it"
        elif entry.status == "recommended_gap":
            label = f"Recommended guarantee missing: {', '.join(entry.missing_recommended)} not stated"
        else:
            label = "Covered"
        out.append({**entry.to_json(), "severity": severity, "colour": colour, "label": label})
    out.sort(key=lambda e: -e["severity"])  # stable: equal severities keep request order
    return out


def _domain_of(module: str, scan: LayerScan) -> str | None:
    for domain in scan.domains:
        package = "tools." + domain.replace("/", ".")
        if module == package or module.startswith(package + "."):
            return domain
    return None


def _used_domains(request: ApprovalRequest, scan: LayerScan, bound: list[BoundGuarantee]) -> list[str]:
    """Every library the program touches: called (facts), guaranteed about, covered, or imported."""
    seen: list[str] = []
    for eff in (request.effects or {}).get("effects", []):
        seen.append(eff["domain"])
    seen += [b.contract.domain for b in bound if b.contract is not None]
    seen += [c.domain for c in request.coverage]
    _, names = program_imports(request.program)
    seen += [d for d in (_domain_of(target, scan) for target in names.values()) if d]
    return list(dict.fromkeys(seen))


def build_summary(request: ApprovalRequest, scan: LayerScan, bound: list[BoundGuarantee]) -> dict[str, Any]:
    """Issue 12's summary: plan, guarantees as sentences, one line per library, remember scope."""
    titles = {d: info.title for d, info in scan.domains.items()}
    kinds = {d: info.mock for d, info in scan.domains.items()}
    guarantees: list[dict[str, Any]] = []
    limits: dict[str, list[str]] = {}
    for b in bound:
        info = b.contract
        text, warnings, lists = summary.guarantee_text(
            info.description_template if info else None, b.args, first_paragraph(info.docstring) if info else None,
            b.expression, end_state=bool(info and info.end_state))
        domain = info.domain if info else None
        guarantees.append({"text": text, "warnings": warnings, "lists": lists, "domain": domain,
                           "library": titles.get(domain or "", domain)})
        if domain:
            limits.setdefault(domain, []).append(text)
    facts = request.effects
    calls = summary.calls_from_facts(facts, {d: k == "mock" for d, k in kinds.items()})
    plan = summary.plan(calls, bool(facts and facts.get("complete")), limits, titles)
    used = _used_domains(request, scan, bound)
    libraries: list[dict[str, Any]] = []
    for domain in used:
        kind = kinds.get(domain, "unknown")
        title, warn = reveal(titles.get(domain, domain))
        covered = domain in limits
        line = f"{title} — {_KIND_TEXT.get(kind, 'not found in the approved libraries')}"
        line += "." if covered else "; no guarantee about it was stated."
        libraries.append({"domain": domain, "title": title, "mock": kind, "guaranteed": covered, "line": line,
                          "warnings": warn})
    simulated = bool(used) and all(kinds.get(d) == "mock" for d in used)
    source, source_warnings = reveal(request.program)
    request_id, _ = reveal(request.request_id)
    every = set(plan.warnings) | set(source_warnings)
    for g in guarantees:
        every.update(g["warnings"])
    for lib in libraries:
        every.update(lib["warnings"])
    return {
        "plan": plan.to_json(),
        "guarantees": guarantees,
        "libraries": libraries,
        "simulated": simulated,
        "scope": summary.remember_scope([g["text"] for g in guarantees]),
        "scope_intro": summary.SCOPE_INTRO if guarantees else None,
        "scope_terms": summary.SCOPE_TERMS if guarantees else None,
        "reject_scope": summary.reject_scope([g["text"] for g in guarantees]),
        "reject_scope_intro": summary.REJECT_SCOPE_INTRO if guarantees else None,
        "reject_scope_terms": summary.REJECT_SCOPE_TERMS if guarantees else None,
        "warnings": sorted(every),
        "source": source,
        "source_warnings": source_warnings,
        "agent_request_id": request_id,
    }


def revealed(value: Any) -> Any:
    """Every string inside ``value`` with its hiding characters escaped (idempotent: escapes are ASCII)."""
    if isinstance(value, str):
        return reveal(value)[0]
    if isinstance(value, list):
        return [revealed(v) for v in value]
    if isinstance(value, dict):
        return {k: revealed(v) for k, v in value.items()}
    return value


def build_presentation(request: ApprovalRequest, scan: LayerScan, bound: list[BoundGuarantee]) -> dict[str, Any]:
    """The card's data; no string in it can hide a character from the person (issue 11 §6)."""
    shown: dict[str, Any] = revealed(_presentation(request, scan, bound))
    refresh(shown)  # the one rendering both pages print (issue 19)
    return shown


def _presentation(request: ApprovalRequest, scan: LayerScan, bound: list[BoundGuarantee]) -> dict[str, Any]:
    contracts = [_contract_entry(b, scan) for b in bound]
    coverage = coverage_entries(request)
    card = build_summary(request, scan, bound)
    kinds = {lib["mock"] for lib in card["libraries"]}
    return {
        "summary": card,
        "contracts": contracts,
        "coverage": coverage,
        "coverage_note": None if coverage else NO_POLICIES,
        "mock_notice": MOCK_NOTICE if card["simulated"] else None,
        "undeclared_notice": UNDECLARED_NOTICE if "unmarked" in kinds else None,
        "proofs": [p.to_json() for p in request.proofs],
        "program": {"source_name": request.source_name, "sha256": request.program_sha256,
                    "lines": len(request.program.splitlines())},
        "execution": {"target": request.target, "timeout_seconds": request.execution_timeout_seconds,
                      "sandbox": request.sandbox.mode, "sandbox_detail": request.sandbox.detail,
                      "extra_read": list(request.sandbox.extra_read),
                      "extra_write": list(request.sandbox.extra_write),
                      # Issue 19: "This run cannot use the network (Landlock)", and what protection is missing.
                      "network": request.sandbox.network.text if request.sandbox.network else None,
                      "gaps": list(request.sandbox.gaps),
                      "automatic": None if request.sandbox.automatic_allowed else AUTOMATIC_OFF},
    }
