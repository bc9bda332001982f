"""Issue 20: changes_only refuses a field that is not an update field, so a typo cannot widen it."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

EFFECTS = '''
import clauz3


@clauz3.trusted
@clauz3.mock
def update_event(id: int, title: str | None = None, recurring: bool | None = None) -> None:
    """Change the given fields of event id."""
'''
CONTRACTS = '''
from tools.demo.trusted.effects import update_event

from clauz3.spec import ContractSpec, contract, effect


@contract(description="updates change only {fields}")
def fields_only(fields: list[str]) -> ContractSpec:
    return effect(update_event).changes_only(fields)
'''
PROGRAM = '''
import clauz3
from tools.demo.trusted import contracts as demo
from tools.demo.trusted.effects import update_event


@clauz3.guarantee(demo.fields_only({fields}))
def main() -> None:
    update_event(1, title="x", recurring={recurring})
'''


def _prove(tmp_path: Path, fields: str, recurring: str) -> subprocess.CompletedProcess[str]:
    trusted = tmp_path / "tools" / "demo" / "trusted"
    trusted.mkdir(parents=True, exist_ok=True)
    (trusted / "__init__.py").write_text("")
    (trusted / "effects.py").write_text(EFFECTS)
    (trusted / "contracts.py").write_text(CONTRACTS)
    prog = tmp_path / "main.py"
    prog.write_text(textwrap.dedent(PROGRAM.format(fields=fields, recurring=recurring)))
    return subprocess.run([sys.executable, "-m", "clauz3", "prove", "--trusted-root", "tools/demo/trusted",
                           "main.py"], cwd=tmp_path, capture_output=True, text=True, timeout=120)


def test_a_field_that_is_not_an_update_field_is_a_contract_error(tmp_path: Path) -> None:
    for wrong in ('["titel"]', '["id"]'):
        done = _prove(tmp_path, wrong, "None")
        assert done.returncode == 2
        assert "contract-error" in done.stderr and "is not an update field" in done.stderr, done.stderr
        assert "Traceback" not in done.stderr


def test_a_field_left_as_none_proves_and_a_set_flag_is_violated(tmp_path: Path) -> None:
    ok = _prove(tmp_path, '["title"]', "None")
    assert ok.returncode == 0, ok.stdout + ok.stderr
    bad = _prove(tmp_path, '["title"]', "True")
    assert bad.returncode != 0 and "violated guarantee demo.fields_only" in bad.stdout, bad.stdout + bad.stderr
