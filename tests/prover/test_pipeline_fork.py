"""prove_file_any_layer (01 TL-6): another layer is proved in a forked child that forgot this one."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from clauz3.language import layer as layer_module
from clauz3.prover import pipeline
from clauz3.prover.entry import ProofEntry
from clauz3.prover.pipeline import ProofOutcome, ProofRequest, prove_file_any_layer


@pytest.fixture
def other_layer_loaded(monkeypatch: pytest.MonkeyPatch) -> None:
    """This process already holds a layer for other roots, and some tools.* module."""
    monkeypatch.setattr(pipeline._State, "layer_roots", (("/elsewhere",), ()))
    monkeypatch.setattr(layer_module._State, "key", (("/elsewhere",), ()))
    monkeypatch.setitem(sys.modules, "tools.elsewhere", type(sys)("tools.elsewhere"))


def _request(tmp_path: Path) -> ProofRequest:
    return ProofRequest(tmp_path / "prog.py", [tmp_path / "trusted"], [tmp_path])


@pytest.mark.usefixtures("other_layer_loaded")
def test_child_forgets_the_parents_layer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def fake_prove(req: ProofRequest, *, project_root: Path | None = None) -> ProofOutcome:
        seen = {"pipeline": pipeline._State.layer_roots, "layer": layer_module._State.key,
                "tools": sorted(m for m in sys.modules if m.startswith("tools."))}
        # What the child saw travels back in a field the parent reads typed (the entry's warnings).
        entry = ProofEntry(str(req.path), "main", "", status="proved", warnings_text=(json.dumps(seen),))
        return ProofOutcome(entry, ["note"], "proved")

    monkeypatch.setattr(pipeline, "prove_file", fake_prove)
    out = prove_file_any_layer(_request(tmp_path))
    assert out.entry.warnings_text is not None
    assert json.loads(out.entry.warnings_text[0]) == {"pipeline": None, "layer": None, "tools": []}
    assert out.entry.path == str(tmp_path / "prog.py") and out.entry.status == "proved"
    assert out.stderr == ["note"] and out.verdict == "proved" and out.deadline_expired is False
    assert layer_module._State.key == (("/elsewhere",), ())  # the parent keeps its own layer


@pytest.mark.usefixtures("other_layer_loaded")
def test_child_failure_names_its_reason(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(req: ProofRequest, **_: Any) -> ProofOutcome:
        raise RuntimeError("boom\nsecond line")

    monkeypatch.setattr(pipeline, "prove_file", broken)
    out = prove_file_any_layer(_request(tmp_path))
    # Issue 18: an internal failure is the refusal `internal-error`, naming the exception's class only
    # (its text names internals).
    assert len(out.stderr) == 1 and "internal-error" in out.stderr[0] and "RuntimeError" in out.stderr[0]
    assert "boom" not in out.stderr[0]
    assert out.entry.diagnostic_codes() == ["internal-error"]
    assert out.verdict == "refused" and out.entry.status == "refused"
