"""Card data built by the authority from the authorised layer (03 §10), never from request text."""

from __future__ import annotations

from typing import Any

from clauz3.approvals.layerscan import (
    BoundGuarantee,
    LayerScan,
    first_paragraph,
    render_template,
    render_value,
)
from clauz3.approvals.requests import ApprovalRequest

MOCK_NOTICE = "Uses simulated tools. Simulation is declared by the library and is not an isolation guarantee."
UNDECLARED_NOTICE = "Some tools here do nothing, but their author has not declared them as mocks."
NO_POLICIES = "No domain policies applied."

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
    args = ", ".join(f"{name}={render_value(value)}" for name, value in bound.args.items())
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
            description = render_template(info.description_template, bound.args)
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


def build_presentation(request: ApprovalRequest, scan: LayerScan, bound: list[BoundGuarantee]) -> dict[str, Any]:
    contracts = [_contract_entry(b, scan) for b in bound]
    kinds = {c["library"]["mock"] for c in contracts if c["library"]}
    coverage = coverage_entries(request)
    return {
        "contracts": contracts,
        "coverage": coverage,
        "coverage_note": None if coverage else NO_POLICIES,
        "mock_notice": MOCK_NOTICE if kinds & {"mock", "mixed"} else None,
        "undeclared_notice": UNDECLARED_NOTICE if "unmarked" in kinds else None,
        "proofs": [p.to_json() for p in request.proofs],
        "program": {"source_name": request.source_name, "sha256": request.program_sha256,
                    "lines": len(request.program.splitlines())},
        "execution": {"target": request.target, "timeout_seconds": request.execution_timeout_seconds,
                      "sandbox": request.sandbox.mode, "sandbox_detail": request.sandbox.detail,
                      "extra_read": list(request.sandbox.extra_read),
                      "extra_write": list(request.sandbox.extra_write)},
    }
