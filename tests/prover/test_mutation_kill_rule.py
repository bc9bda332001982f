"""scripts/mutation_check.py counts a mutant as killed only when the prover refutes it (issue 23), and fails
on a literal whose mutants only erred, timed out, were refused or ended unknown (they are no kill).

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


@pytest.mark.parametrize(("mutants", "kind"), [
    ([["proved"], ["violated guarantee"]], "killed"),
    ([["refused error"], ["unknown deadline"], ["violated guarantee"]], "killed"),
    ([["proved"], ["proved"]], "survived"),
    ([["proved"], ["refused error"]], "undecided"),
    ([["unknown timeout"]], "undecided"),
    ([["unknown deadline"], ["refused target-missing"]], "undecided"),
])
def test_a_literal_no_mutant_refuted_is_undecided_when_some_mutant_erred_or_timed_out(
        mutants: list[list[str]], kind: str) -> None:
    assert load_script().literal_verdict(mutants)[0] == kind


def test_an_undecided_literal_fails_the_check_even_above_the_kill_bar() -> None:
    """99 literals refuted and one whose mutants only erred or timed out: 99 % is above the 95 % bar, but
    the erring mutants are all that 'killed' the last literal, so the check fails and says so apart."""
    script = load_script()
    lines, status = script.verdict(100, [], ["lib/x_pass.py line 3: 7 (mutants: refused error, unknown timeout)"], [])
    assert status == 1
    assert "100 mutants, 99 killed, 0 survived, 1 undecided (99.0%)" in lines
    assert any(line.startswith("undecided: lib/x_pass.py line 3: 7") for line in lines)
    assert lines[-1].startswith("error: 1 literal(s) undecided")
    assert script.verdict(100, ["lib/y_pass.py line 4: 2"], [], [])[1] == 0  # one plain survivor: 99 % passes
    assert script.verdict(100, [], [], [])[1] == 0
    assert script.verdict(0, [], [], [])[1] == 1  # never passes on nothing
