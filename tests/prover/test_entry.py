"""Issue 23 "typed in the middle": the §4.5 entry is one typed value, JSON only where it crosses a boundary."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from clauz3.prover.entry import (
    CoverageRecord,
    DiagnosticRecord,
    EffectFacts,
    EntryFormatError,
    ObligationRecord,
    ProofEntry,
)

ROOT = Path(__file__).resolve().parents[2]
EMAIL = ROOT / "examples" / "email"

OB = ObligationRecord(index=0, kind="guarantee", description="guarantee emails.at_most(1)", line=5, column=1,
                      conclusion="violated", source_kind="submitted", expression="emails.at_most(1)",
                      call="email.at_most(count=1)", module="tools.email.trusted.contracts", cls="safety",
                      result="2 calls", counterexample={"why": "2 calls", "trace": [{"index": 1, "line": 9}]},
                      elapsed_ms=3)
ENTRY = ProofEntry("/p/main.py", "main", "a" * 64, ir_sha256="b" * 64, layer_sha256="c" * 64, engine="e",
                   elapsed_ms=7, status="not_proved", obligations=(OB,),
                   coverage=(CoverageRecord("email", "recommended_gap", (), ("email.only",)),),
                   warnings_text=("warning: /p/main.py:1:1: w: x",))


def test_the_json_has_the_spec_order_and_only_the_optional_keys_that_are_set() -> None:
    doc = ENTRY.to_json()
    assert list(doc)[:12] == ["path", "target", "program_sha256", "ir_sha256", "layer_sha256", "engine", "cached",
                              "elapsed_ms", "status", "obligations", "coverage", "diagnostics"]
    assert list(doc)[12:] == ["warnings_text"]  # no target_missing, no effect_facts: they were not set
    assert doc["obligations"] == [OB.to_json()]
    assert list(OB.to_json()) == ["index", "kind", "description", "expression", "predicate", "call", "effect", "module",
                        "line", "column", "conclusion", "reason", "class", "source_kind", "result",
                        "counterexample", "elapsed_ms"]
    facts = replace(ENTRY, target_missing=True, effect_facts=EffectFacts(None)).to_json()
    assert facts["target_missing"] is True and "effect_facts" in facts and facts["effect_facts"] is None


@pytest.mark.parametrize("entry", [
    ENTRY,
    replace(ENTRY, status="refused", obligations=(), coverage=(), warnings_text=None,
            diagnostics=(DiagnosticRecord("error", "/p/main.py", 1, 1, "import-not-allowed", "import of os", None),)),
    replace(ENTRY, status="error", diagnostics=("error: /p/main.py: proof deadline expired before a verdict",)),
    replace(ENTRY, effect_facts=EffectFacts({"complete": True, "effects": []}), cached=True),
])
def test_json_reads_back_as_the_same_entry(entry: ProofEntry) -> None:
    text = json.dumps(entry.to_json())
    again = ProofEntry.from_json(json.loads(text))
    assert again == entry and json.dumps(again.to_json()) == text


@pytest.mark.parametrize("change", [
    {"status": "maybe"}, {"cached": "yes"}, {"path": None}, {"elapsed_ms": 1.5}, {"obligations": [{"index": 0}]},
    {"coverage": [{"domain": "email", "status": "covered", "missing_required": [1], "missing_recommended": []}]},
    {"diagnostics": [{"severity": "error"}]}, {"warnings_text": "one"}, {"effect_facts": []},
])
def test_json_that_is_no_entry_is_refused(change: dict[str, Any]) -> None:
    with pytest.raises(EntryFormatError):
        ProofEntry.from_json({**ENTRY.to_json(), **change})


def test_a_cached_proof_prints_the_same_keys_in_the_same_order_as_a_fresh_one(tmp_path: Path) -> None:
    env = dict(os.environ, CLAUZ3_HOME=str(tmp_path / "home"), CLAUZ3_CACHE=str(tmp_path / "cache"),
               CLAUZ3_PROOF_CACHE="1")
    program = EMAIL / "cases" / "at_most_two_sends_fail.py"

    def prove() -> dict[str, Any]:
        out = subprocess.run([sys.executable, "-m", "clauz3", "prove", "--json", "--trusted-root",
                              str(EMAIL / "tools" / "email" / "trusted"), str(program)], capture_output=True,
                             text=True, env=env, cwd=EMAIL, timeout=120)
        assert out.returncode == 1, out.stderr  # a violated guarantee
        entry: dict[str, Any] = json.loads(out.stdout)["entries"][0]
        return entry

    fresh, cached = prove(), prove()
    assert fresh["cached"] is False and cached["cached"] is True
    assert list(cached) == list(fresh)
    assert [list(o) for o in cached["obligations"]] == [list(o) for o in fresh["obligations"]]
    same = ("elapsed_ms", "cached")
    assert {k: v for k, v in cached.items() if k not in same} == {k: v for k, v in fresh.items() if k not in same}
