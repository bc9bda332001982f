"""scripts/mutation_check.py counts a mutant as killed only when the prover refutes it (issue 23).

A refused, erring, timed-out or "unknown" mutant says nothing about the guarantee, so it must not raise the kill
rate: the rule is checked on every outcome kind the case runner's ``actual_outcomes`` produces.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "mutation_check.py"


def load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("mutation_check", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(("outcomes", "killed"), [
    (["violated guarantee"], True),
    (["unknown deadline", "violated guarantee"], True),
    (["proved"], False),
    (["unknown deadline"], False),
    (["unknown timeout"], False),
    (["unknown unsupported"], False),
    (["refused error"], False),
    (["refused target-missing"], False),
    (["refused helper-arguments"], False),
])
def test_only_a_refutation_kills(outcomes: list[str], killed: bool) -> None:
    assert load_script().refuted(outcomes) is killed


def test_the_outcome_words_are_the_case_runners() -> None:
    from clauz3.prover.casetest import actual_outcomes
    from clauz3.prover.entry import ObligationRecord, ProofEntry

    def entry(conclusion: str, kind: str = "guarantee", reason: str | None = None) -> ProofEntry:
        ob = ObligationRecord(index=0, kind=kind, description=f"{kind} x", line=1, column=1, conclusion=conclusion,
                              source_kind="submitted", reason=reason)
        return ProofEntry("p.py", "main", "", status="not_proved", obligations=(ob,))

    assert actual_outcomes(entry("violated")) == ["violated guarantee"]
    assert actual_outcomes(ProofEntry("p.py", "main", "", status="error")) == ["refused error"]
    assert actual_outcomes(entry("unknown", reason="deadline")) == ["unknown deadline"]
