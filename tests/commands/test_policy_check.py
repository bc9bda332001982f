"""``clauz3 policy-check`` (03 §17.4, CLI-7): the authority's rule walk, without running anything."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
EMAIL_TOOLS = REPO / "examples" / "email" / "tools" / "email"
MAIN = (REPO / "examples" / "email" / "main.py").read_text()
TO_EVE = '''
from tools.email.trusted import contracts as emails
from tools.email.trusted.effects import send_email

import clauz3


@clauz3.guarantee(emails.at_most(1))
def main() -> None:
    send_email("eve@evil.example", "hello")
'''
POLICY = {"version": 1, "imports": {"mail": "tools.email.trusted.contracts"},
          "rules": [{"name": "no-external", "decision": "auto_rejected", "reason": "example.com only",
                     "unless_proven": ["mail.only(['bob@example.com', 'ann@example.com'])"]},
                    {"name": "small", "decision": "auto_approved", "reason": "few mails",
                     "when_proven": ["mail.at_most(count=3)"]}]}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    proj = tmp_path / "proj"
    shutil.copytree(EMAIL_TOOLS, proj / "tools" / "email", ignore=shutil.ignore_patterns("__pycache__"))
    (proj / "main.py").write_text(MAIN)
    (proj / "eve.py").write_text(TO_EVE)
    (tmp_path / "policy.json").write_text(json.dumps(POLICY))
    return proj


def check(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAUZ3_")}
    env.update(CLAUZ3_HOME=str(project.parent / "data"), CLAUZ3_PROOF_CACHE="0")
    return subprocess.run([sys.executable, "-m", "clauz3", "policy-check", "--trusted-root", "tools/email/trusted",
                           "--policy", str(project.parent / "policy.json"), *args],
                          cwd=project, env=env, capture_output=True, text=True, timeout=120)


def test_allow_rule_fires_and_expect_mismatch_exits_1(project: Path) -> None:
    out = check(project, "main.py")
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "auto_approved: small (few mails)"
    assert check(project, "main.py", "--expect", "ask").returncode == 1
    assert check(project, "main.py", "--expect", "auto_approved").returncode == 0


def test_unprovable_deny_clause_rejects(project: Path) -> None:
    out = check(project, "eve.py", "--expect", "auto_rejected")
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.strip() == "auto_rejected: no-external (example.com only)"


def test_unprovable_program_is_not_submittable(project: Path) -> None:
    (project / "two.py").write_text(TO_EVE.replace('    send_email("eve@evil.example", "hello")',
                                                   '    send_email("a@b.c", "1")\n    send_email("a@b.c", "2")'))
    out = check(project, "two.py")
    assert out.returncode == 1
    assert out.stdout.splitlines()[-1] == "not submittable: proof failed"


def test_invalid_policy_exits_2(project: Path) -> None:
    bad = dict(POLICY, rules=[dict(POLICY["rules"][1], decision="approved")])
    (project.parent / "policy.json").write_text(json.dumps(bad))
    out = check(project, "main.py")
    assert out.returncode == 2 and out.stderr.startswith("error: ")


FORWARD = '''
from tools.email.trusted import contracts as emails
from tools.email.trusted.effects import read_latest_email, send_email

import clauz3


@clauz3.guarantee(emails.only(["bob@example.com"]))
@clauz3.guarantee(emails.at_most(1))
def main() -> None:
    latest = read_latest_email()
    {send}
'''


READS_AT_MOST = '''

@contract(description="at most {count} emails are read")
def reads_at_most(count: int) -> ContractSpec:
    return effect(read_latest_email).count() <= count
'''


@pytest.mark.parametrize(("send", "expected"), [
    ("send_email('bob@example.com', 'FYI: ' + latest[:60])", "ask"),
    ("if 'urgent' in latest:\n        send_email('bob@example.com', 'Look at your inbox')", "ask"),  # implicit flow
    ("send_email('bob@example.com', 'Hi from clauz3')", "auto_approved"),  # the control: nothing read is sent
])
def test_an_allow_rule_does_not_decide_what_one_run_reads_and_sends(project: Path, send: str, expected: str) -> None:
    """Issue 20: the authority never lets an allow rule decide a program whose sent values may derive from what it
    reads in the same run; policy-check says the same (it needs no conversation to know)."""
    contracts = project / "tools" / "email" / "trusted" / "contracts.py"
    contracts.write_text(contracts.read_text() + READS_AT_MOST)
    policy = {**POLICY, "rules": [{"name": "small", "decision": "auto_approved", "reason": "few mails",
                                   "when_proven": ["mail.at_most(count=3)", "mail.reads_at_most(count=1)"]}]}
    (project.parent / "policy.json").write_text(json.dumps(policy))
    (project / "forward.py").write_text(FORWARD.replace("{send}", send).replace(
        "def main", "@clauz3.guarantee(emails.reads_at_most(1))\ndef main"))
    out = check(project, "forward.py")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith(f"{expected}:"), (out.stdout, out.stderr)
    assert ("provenance: The email to bob@example.com may contain what this program reads from the newest email in "
            "your inbox, or depend on it" in out.stderr) == (expected == "ask"), out.stderr
