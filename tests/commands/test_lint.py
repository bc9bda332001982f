"""``clauz3 lint`` end to end through the dispatcher (01 §8.3, 05 CLI-17)."""

from __future__ import annotations

from pathlib import Path

import pytest

from clauz3.cli import main

EFFECTS = '''\
import clauz3

raise RuntimeError("never imported by lint")


def positive(x):
    return x > 0


@clauz3.trusted
@clauz3.requires(positive)
def charge(amount: int):
    """Charge amount."""
    print(amount)


@clauz3.trusted
def stub(x: int) -> None:
    """Nothing."""
    pass
'''


def write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_acceptance_layer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    write(tmp_path, {"tools/bank/trusted/effects.py": EFFECTS})
    monkeypatch.chdir(tmp_path)
    assert main(["lint", "tools"]) == 1
    assert capsys.readouterr().out.splitlines() == [
        "tools/bank/trusted/effects.py:11:18: C3L003 requires condition of charge is not an inline lambda (a def)",
        "tools/bank/trusted/effects.py:12:1: C3L001 effect charge: return annotation missing (01 EFF-4)",
        "tools/bank/trusted/effects.py:18:1: C3L015 undeclared stub: stub does nothing but is not marked @clauz3.mock",
    ]


def test_clean_exit_0_and_strict(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    write(tmp_path, {"tools/d/trusted/effects.py": "import clauz3\n\n\n@clauz3.trusted\ndef f(x: int) -> None:\n    pass\n"})
    monkeypatch.chdir(tmp_path)
    assert main(["lint", "."]) == 0
    assert "C3L015" in capsys.readouterr().out
    assert main(["lint", "--strict", "."]) == 1


def test_missing_path_and_unparsable_exit_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["lint", "nope"]) == 2
    assert capsys.readouterr().err == "error: nope: no such file or directory\n"
    write(tmp_path, {"bad.py": "def f(:\n"})
    assert main(["lint", "bad.py"]) == 2
    assert capsys.readouterr().err.startswith("error: bad.py:1:")


def test_examples_are_clean(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    root = Path(__file__).resolve().parents[2]
    monkeypatch.chdir(root)
    examples = sorted(str(p.relative_to(root)) for p in (root / "examples").iterdir() if (p / "tools").is_dir())
    assert main(["lint", *examples]) == 0
    captured = capsys.readouterr()
    assert captured.out == ""
    # Issue 22: a pass says so, on stderr.
    assert captured.err == f"clauz3 lint: no findings in {', '.join(examples)}.\n"
