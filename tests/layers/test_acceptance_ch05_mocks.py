"""05 §14 "Mocks": the tutorial email library is kind `mock` (TUT-11), a `pass`-bodied unmarked effect
reads `Undeclared` and a half-declared domain `🧪 Mixed` in `clauz3 libraries` (MOCK-3..5)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import clauz3.tutorials as bundled
from clauz3.cli import main
from clauz3.layers.mockscan import scan_mocks

EFFECT = '''
@clauz3.trusted{mock}
def {name}(path: str) -> None:
    """{name}."""
    {body}
'''


def domain(root: Path, name: str, effects: list[tuple[str, str, bool]]) -> None:
    trusted = root / "tools" / name / "trusted"
    trusted.mkdir(parents=True)
    text = "import clauz3\n\n" + "".join(
        EFFECT.format(name=n, body=b, mock="\n@clauz3.mock" if m else "") for n, b, m in effects)
    (trusted / "effects.py").write_text(text)
    (root / "tools" / name / "clauz3.yaml").write_text(
        f"schema_version: 1\nname: {name}\ntitle: {name} tools\nsummary: {name}.\ndescription: The {name} library.\n")


def test_tutorial_email_library_is_declared_mock() -> None:
    report = scan_mocks([bundled.HERE / "email" / "tools" / "email" / "trusted"])
    assert report.kind == "mock" and report.errors == []
    assert report.to_json()["effects"] == [{"name": "send_email", "status": "mock"},
                                           {"name": "read_inbox", "status": "mock"}]


def test_libraries_text_shows_undeclared_and_mixed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("CLAUZ3_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("CLAUZ3_CACHE", str(tmp_path / "cache"))
    project = tmp_path / "project"
    domain(project, "stubby", [("save", "pass", False)])
    domain(project, "halfway", [("fake", "pass", True), ("real", "print(path)", False)])
    domain(project, "solid", [("real", "print(path)", False)])
    monkeypatch.chdir(project)
    assert main(["libraries", "stubby", "--json"]) == 0
    [record] = json.loads(capsys.readouterr().out)
    assert record["mock"] == "unmarked"
    for query, label in (("stubby", "Undeclared"), ("halfway", "🧪 Mixed")):
        assert main(["libraries", query]) == 0
        lines = capsys.readouterr().out.splitlines()
        assert lines[0].startswith(f"project:{query} [project; installed]")
        assert f"  {label}" in lines
    assert main(["libraries", "solid"]) == 0
    out = capsys.readouterr().out
    assert "🧪" not in out and "Undeclared" not in out and "safe" not in out.lower()
