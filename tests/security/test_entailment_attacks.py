"""Issue 11 §1: policy entailment cannot be fooled (real child process, real checker, real prover, real libraries).

Each attack is a program that sends ten emails, evaluated against the operator rule "at most 3 emails"
(``mail.at_most(count=3)``, ``mail`` = the email library's contracts). Before the fix the child spliced
the rule into the source text by ``splitlines()`` line numbers and bound the library under a fixed
alias, so each of these programs was approved automatically. Benign twins (one email) show that the
same rule does fire when it holds, so a refusal here is the rule working, not entailment broken.
"""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest

from clauz3.approvals.policies import EntailmentQuery, evaluate_policy, parse_policy
from clauz3.prover.entailment import RESERVED, EntailmentError, augment, entails

REPO = Path(__file__).resolve().parents[2]
IMPORTS = {"mail": "tools.email.trusted.contracts"}
AT_MOST_3 = ("mail.at_most(count=3)",)
OLD_ALIAS = "_clauz3_policy_mail"  # the fixed alias the old child used

HEADER = '''"""A newsletter.{doc}"""

from tools.email.trusted import contracts as emails
from tools.email.trusted.effects import send_email

import clauz3

'''


def sends(count: int) -> str:
    return "\n".join(f'    send_email("user{i}@example.com", "hello")' for i in range(count)) + "\n"


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    proj = tmp_path_factory.mktemp("entail") / "proj"
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(REPO / "examples" / "email" / "tools" / "email", proj / "tools" / "email", ignore=ignore)
    shutil.copytree(REPO / "examples" / "email-from-db" / "tools" / "db", proj / "tools" / "db", ignore=ignore)
    return proj


def query(project: Path, program: str, clauses: tuple[str, ...] = AT_MOST_3) -> EntailmentQuery:
    roots = (str(project / "tools" / "email" / "trusted"), str(project / "tools" / "db" / "trusted"))
    return EntailmentQuery(program=program, target="main", trusted_roots=roots, import_roots=(str(project),),
                           project=str(project), imports=dict(IMPORTS), clauses=clauses, rule_name="small",
                           timeout_seconds=60.0)


def test_benign_program_is_entailed_and_ten_emails_are_not(project: Path) -> None:
    benign = HEADER.format(doc="") + "@clauz3.guarantee(emails.at_most(1))\ndef main() -> None:\n" + sends(1)
    assert entails(query(project, benign)) is True
    ten = HEADER.format(doc="") + "def main() -> None:\n" + sends(10)
    assert entails(query(project, ten)) is False


def test_alias_collision_with_the_reserved_name_is_refused(project: Path) -> None:
    """The program imports the db library under the name the child binds the email library to."""
    program = HEADER.format(doc="") + (
        f"from tools.db.trusted import contracts as {OLD_ALIAS}\n\n\n"
        f"@clauz3.guarantee({OLD_ALIAS}.none())\ndef main() -> None:\n" + sends(10))
    assert entails(query(project, program)) is False
    with pytest.raises(Exception, match="reserved-name"):
        augment(program, "main", IMPORTS, AT_MOST_3)


def test_other_library_under_the_policy_alias_does_not_satisfy_the_rule(project: Path) -> None:
    """``mail`` in the program is the db library; the rule's ``mail`` is still the email library."""
    program = HEADER.format(doc="") + (
        "from tools.db.trusted import contracts as mail\n\n\n"
        "@clauz3.guarantee(mail.at_most(count=3))\ndef main() -> None:\n" + sends(10))
    assert entails(query(project, program)) is False


def test_programs_own_guarantee_is_not_the_rules_obligation(project: Path) -> None:
    """The program proves its own weaker bound (20); the rule's bound (3) must be proved on its own."""
    program = HEADER.format(doc="") + "@clauz3.guarantee(emails.at_most(20))\ndef main() -> None:\n" + sends(10)
    assert entails(query(project, program)) is False


@pytest.mark.parametrize("brk", ["\x0c", "\x0b", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"],
                         ids=["FF", "VT", "FS", "GS", "RS", "NEL", "LS", "PS"])
def test_line_break_characters_in_docstrings_and_strings(project: Path, brk: str) -> None:
    """``str.splitlines`` breaks lines where Python's parser does not; nothing may move the rule."""
    doc = brk * 6
    own = f"@clauz3.guarantee({OLD_ALIAS}.at_most(count=20))\n" if brk == "\x0c" else ""
    body = f'    note = "a{brk}b{brk}c"\n' + sends(10)
    ten = HEADER.format(doc=doc) + own + f'def main() -> None:\n    """{doc}"""\n' + body
    assert entails(query(project, ten)) is False
    benign = HEADER.format(doc=doc) + f'def main() -> None:\n    """{doc}"""\n    note = "a{brk}b"\n' + sends(1)
    assert entails(query(project, benign)) is True


def test_form_feed_attack_without_reserved_names(project: Path) -> None:
    """Form feeds before the target with the program's own (proved) guarantee right below them."""
    program = (HEADER.format(doc="\x0c" * 8) + "\x0c\n" * 3
               + "@clauz3.guarantee(emails.no_guarantees())\ndef main() -> None:\n" + sends(10))
    assert entails(query(project, program)) is False


def test_reserved_prefix_anywhere_is_refused() -> None:
    for snippet in (f"{RESERVED}x = 1", f"def f({RESERVED}a): pass", f"import os as {RESERVED}", f"x.{RESERVED}",
                    f"f({RESERVED}k=1)", f"from {RESERVED} import y"):
        with pytest.raises(Exception, match="reserved-name"):
            augment(snippet + "\ndef main() -> None:\n    pass\n", "main", IMPORTS, AT_MOST_3)


def test_added_names_are_fresh_per_evaluation() -> None:
    program = "def main() -> None:\n    pass\n"
    first = augment(program, "main", IMPORTS, AT_MOST_3)
    second = augment(program, "main", IMPORTS, AT_MOST_3)
    assert first.prefix != second.prefix and first.prefix.startswith(RESERVED)
    assert first.prefix in first.source and first.prefix not in second.source


@pytest.mark.parametrize("clause", ["emails.at_most(count=3)", "mail.at_most(count=len([1]))", "mail",
                                    "mail.at_most(count=3) or True"])
def test_clause_outside_the_policy_imports_is_undecidable(clause: str) -> None:
    with pytest.raises(EntailmentError):
        augment("def main() -> None:\n    pass\n", "main", IMPORTS, (clause,))


def test_deny_rule_fires_for_ten_emails_and_not_for_one(project: Path) -> None:
    policy = parse_policy(b'{"version": 1, "imports": {"mail": "tools.email.trusted.contracts"}, "rules": ['
                          b'{"name": "few", "decision": "auto_rejected", "reason": "too many",'
                          b' "unless_proven": ["mail.at_most(count=3)"]}]}')
    q = query(project, "")

    def decide(program: str) -> str | None:
        out = asyncio.run(evaluate_policy(policy, program=program, target="main", trusted_roots=q.trusted_roots,
                                          import_roots=q.import_roots, project=q.project, entails=entails,
                                          timeout=60.0))
        assert not out.undecidable, out.undecidable
        return out.deny.name if out.deny else None

    doc = "\x0c" * 8
    ten = (HEADER.format(doc=doc) + f"@clauz3.guarantee({OLD_ALIAS}.at_most(count=20))\n"
           "def main() -> None:\n" + sends(10))
    assert decide(ten) == "few"
    assert decide(HEADER.format(doc=doc) + "def main() -> None:\n" + sends(1)) is None


def test_the_child_ignores_verdict_switches_in_the_environment(project: Path, monkeypatch: pytest.MonkeyPatch
                                                               ) -> None:
    """Issue 11 §4: a switch in the authority's environment never reaches the entailment child."""
    monkeypatch.setenv("CLAUZ3_TESTING", "1")
    monkeypatch.setenv("CLAUZ3_TEST_DROP_GUARANTEE", "tools.email.trusted.contracts.at_most")
    monkeypatch.setenv("PYTHONPATH", ":/nonexistent")
    ten = HEADER.format(doc="") + "def main() -> None:\n" + sends(10)
    assert entails(query(project, ten)) is False
