"""``clauz3 tools`` end to end through the dispatcher (01 §8.4, 05 CLI-15)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from clauz3.cli import main

EFFECTS = '''\
"""Mail effects."""
import clauz3

raise RuntimeError("tools never imports this")


@clauz3.trusted
@clauz3.mock
@clauz3.requires(lambda addr, msg: "@" in addr, message="addr must contain @")
def send_email(addr: str, msg: str) -> None:
    """Send msg to addr.

    Second paragraph is not shown."""


@clauz3.trusted
def archive(folder: str, /, *, dry_run: bool = True) -> int:
    """Archive a folder."""
    return len(folder)
'''
CONTRACTS = '''\
import clauz3
from clauz3.spec import effect


@clauz3.contract(description="at most {count} emails")
def at_most(count: int) -> clauz3.ContractSpec:
    return effect("send_email").count() <= count
'''


def write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    write(tmp_path, {"tools/email/trusted/effects.py": EFFECTS, "tools/email/trusted/contracts.py": CONTRACTS,
                     ".clauz3/tools/acme/bank/trusted/effects.py":
                         'import clauz3\n\n\n@clauz3.trusted\ndef pay(n: int) -> None:\n    """Pay n."""\n    print(n)\n'})
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_lists_every_project_domain(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tools"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "effect tools.acme.bank.trusted.effects:pay(n: int)",
        "  Pay n.",
        "  returns: None",
        "",
        "effect tools.email.trusted.effects:send_email(addr: str, msg: str) [mock]",
        "  Send msg to addr.",
        "  returns: None",
        '  requires: "@" in addr (addr must contain @)',
        "effect tools.email.trusted.effects:archive(folder: str, /, *, dry_run: bool = True)",
        "  Archive a folder.",
        "  returns: int",
        "contract tools.email.trusted.contracts:at_most(count: int)",
        "  at most {count} emails",
    ]
    assert "tools.email" not in sys.modules


def test_query_terms_all_match(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tools", "MAIL", "send"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line for line in out if not line.startswith(" ")] == [
        "effect tools.email.trusted.effects:send_email(addr: str, msg: str) [mock]"
    ]
    assert main(["tools", "contract", "emails"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "contract tools.email.trusted.contracts:at_most(count: int)"
    assert main(["tools", "zzz"]) == 0
    assert capsys.readouterr().out == 'no trusted tools match "zzz"\n'


def test_explicit_root_and_json(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tools", "--json", "--trusted-root", "tools/email/trusted", "send"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data == [{
        "kind": "effect", "module": "tools.email.trusted.effects", "name": "send_email",
        "params": [{"name": "addr", "annotation": "str", "default": None, "kind": "positional_or_keyword"},
                   {"name": "msg", "annotation": "str", "default": None, "kind": "positional_or_keyword"}],
        "returns": "None", "mock": True, "description": "Send msg to addr.",
        "preconditions": [{"predicate": '"@" in addr', "message": "addr must contain @"}],
        "source": {"path": "tools/email/trusted/effects.py", "line": 10},
    }]


def test_empty_roots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["tools"]) == 0
    assert capsys.readouterr().out == "no trusted tools in the selected roots\n"
    assert main(["tools", "--json"]) == 0
    assert capsys.readouterr().out == "[]\n"


def test_bad_roots_exit_2(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tools", "--trusted-root", "missing"]) == 2
    assert capsys.readouterr().err == "error: --trusted-root missing: no such directory\n"
    (project / "lib/x/trusted").mkdir(parents=True)
    assert main(["tools", "--trusted-root", "lib/x/trusted"]) == 2
    assert capsys.readouterr().err == (
        "error: --trusted-root lib/x/trusted: not <import root>/tools/<domain>/trusted\n"
    )
    # With explicit import roots the trusted root must lie below one of them (01 TL-1).
    (project / "other").mkdir()
    assert main(["tools", "--import-root", "other", "--trusted-root", "tools/email/trusted"]) == 2
    assert "not <import root>/tools/<domain>/trusted" in capsys.readouterr().err
    assert main(["tools", "--import-roots", str(project), "--trusted-roots", "tools/email/trusted", "--", "x"]) == 0


def test_both_trees_conflict(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / ".clauz3/tools/email/trusted").mkdir(parents=True)
    assert main(["tools"]) == 2
    assert capsys.readouterr().err == "error: domain email is provided by both .clauz3/tools and tools\n"


def test_shipped_email_example(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(Path(__file__).resolve().parents[2])
    assert main(["tools", "--trusted-root", "examples/email/tools/email/trusted", "mail"]) == 0
    out = capsys.readouterr().out
    assert "effect tools.email.trusted.effects:send_email(addr: str, msg: str) [mock]\n" in out


def test_resolve_roots_defaults_and_implied_import_root(tmp_path: Path) -> None:
    import argparse

    from clauz3.commands._roots import add_root_arguments, resolve_roots

    (tmp_path / "ex/tools/acme/lims/trusted").mkdir(parents=True)
    parser = argparse.ArgumentParser()
    add_root_arguments(parser)
    args = parser.parse_args(["--trusted-root", str(tmp_path / "ex/tools/acme/lims/trusted")])
    trusted, imports = resolve_roots(args, project=tmp_path, program=tmp_path / "prog" / "main.py")
    assert trusted == [tmp_path / "ex/tools/acme/lims/trusted"]
    assert imports == [tmp_path / ".clauz3", tmp_path, tmp_path / "prog", tmp_path / "prog/.clauz3", tmp_path / "ex"]
    args = parser.parse_args(["--import-roots", str(tmp_path / "ex"), str(tmp_path)])
    assert resolve_roots(args, project=tmp_path) == ([], [tmp_path / "ex", tmp_path])
