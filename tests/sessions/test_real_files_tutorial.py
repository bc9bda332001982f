"""The Real files tutorial (05 TUT-13, TUT-14, TUT-7): the copy, its library, and starters that prove."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from clauz3.agents.demo.programs import Modules, build
from clauz3.agents.demo.script import parse
from clauz3.sessions.conversation.tutorials import prepare
from clauz3.tutorials import REAL_FILES


@pytest.fixture(scope="module")
def copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data = tmp_path_factory.mktemp("data")
    os.chmod(data, 0o700)
    return prepare(data, "real-files")


def test_copy_has_sample_folder_and_filesystem_from_stdlib(copy: Path) -> None:
    assert (copy / "notes" / "groceries.txt").read_text().count("\n") == 5
    assert len((copy / "notes" / "meeting.md").read_text().splitlines()) <= 20
    assert (copy / "output" / ".keep").is_file() and (copy / "AGENTS.md").is_file()
    origin = json.loads((copy / ".clauz3" / "tools" / "filesystem" / ".clauz3-origin.json").read_text())
    assert origin["source"] == "stdlib:filesystem" and origin["tree_sha256"]
    marker = json.loads((copy / ".clauz3-tutorial.json").read_text())
    assert marker["id"] == "real-files" and marker["version"] == REAL_FILES.version
    assert not any((copy / ".clauz3" / "staging").iterdir()) if (copy / ".clauz3" / "staging").exists() else True


@pytest.mark.parametrize("starter", REAL_FILES.starters, ids=lambda s: s.label)
def test_every_starter_proves(copy: Path, starter: object, tmp_path: Path) -> None:
    from clauz3.prover.pipeline import ProofRequest, prove_file_any_layer

    intent = parse(starter.text).intent  # type: ignore[attr-defined]
    program = build(intent, Modules.default("filesystem"))
    path = tmp_path / "program.py"
    path.write_text(program.source)
    trusted = copy / ".clauz3" / "tools" / "filesystem" / "trusted"
    request = ProofRequest(path=path, trusted_roots=[trusted], import_roots=[copy / ".clauz3", copy],
                           target="main", allow_imports=[], obligation_timeout=20.0, proof_timeout=60.0,
                           use_cache=False)
    outcome = prove_file_any_layer(request, project_root=copy)
    assert outcome.verdict == "proved", (program.source, outcome.stderr, outcome.entry.obligations)
    assert all(o.conclusion == "proved" for o in outcome.entry.obligations)
