"""Issue 23: the authority child's answer is parsed once (AuthorityProof); one of another shape is refused."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from clauz3.approvals.errors import ApprovalError
from clauz3.approvals.requests import parse_request
from clauz3.approvals.verdicts import check_verdict

from .conftest import GUARANTEES, make_request


def answer(request: dict[str, Any], **over: Any) -> dict[str, Any]:
    """What ``clauz3.prover.verify`` answers for an honest request (its ``_summary``)."""
    entry: dict[str, Any] = {
        "status": "proved", "target_missing": False, "program_sha256": request["program_sha256"],
        "layer_sha256": "l" * 64, "engine": "e", "cached": False,
        "obligations": [{"kind": "guarantee", "description": "ok", "conclusion": "proved", "reason": None,
                         "expression": g, "line": 3, "column": 1} for g in GUARANTEES],
        "guarantees": list(GUARANTEES), "coverage": request["coverage"], "effects": None, "diagnostics": [],
    }
    entry.update(over)
    return {"entry": entry}


def test_an_honest_answer_gives_the_authoritys_proof_block(project: Path) -> None:
    body = make_request(project)
    block = check_verdict(parse_request(body), answer(body))
    assert block == {"by": "authority", "status": "proved", "obligations": len(GUARANTEES),
                     "layer_sha256": "l" * 64, "engine": "e", "cached": False, "effects": None}


@pytest.mark.parametrize("over", [{"status": None}, {"cached": "no"}, {"obligations": [["guarantee"]]},
                                  {"coverage": [{"domain": "email"}]}, {"target_missing": 0}])
def test_an_answer_of_another_shape_is_refused_unverified(project: Path, over: dict[str, Any]) -> None:
    body = make_request(project)
    with pytest.raises(ApprovalError) as caught:
        check_verdict(parse_request(body), answer(body, **over))
    assert caught.value.code == "proof_unverified", caught.value


def test_the_authoritys_coverage_must_equal_the_requests(project: Path) -> None:
    body = make_request(project)
    other = [{**body["coverage"][0], "status": "recommended_gap", "missing_recommended": ["email.only"]}]
    with pytest.raises(ApprovalError) as caught:
        check_verdict(parse_request(body), answer(body, coverage=other))
    assert caught.value.code == "claims_mismatch"
