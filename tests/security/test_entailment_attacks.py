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


def test_the_authoritys_warm_child_decides_the_same(project: Path) -> None:
    """The service evaluates rules in its warm prover child (``ProofVerifier.entails``): same tree, same checks."""
    from clauz3.prover.verify import ProofVerifier

    collision = HEADER.format(doc="") + (f"from tools.db.trusted import contracts as {OLD_ALIAS}\n\n\n"
                                         f"@clauz3.guarantee({OLD_ALIAS}.none())\ndef main() -> None:\n" + sends(10))
    own = HEADER.format(doc="") + "@clauz3.guarantee(emails.at_most(20))\ndef main() -> None:\n" + sends(10)
    benign = HEADER.format(doc="\x0c" * 6) + "def main() -> None:\n" + sends(1)
    verifier = ProofVerifier()
    try:
        assert [verifier.entails(query(project, p)) for p in (collision, own, benign)] == [False, False, True]
        with pytest.raises(EntailmentError):
            verifier.entails(query(project, benign, ("emails.at_most(count=3)",)))
    finally:
        verifier.close()


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


# ------------------------------------------------------------------ end to end: MCP run + operator policy

MCP_TOKEN = "entailment-e2e-submission-token-0123456789"
MCP_APPROVER = "entailment-e2e-approver-token-0123456789ab"
POLICY = {"version": 1, "imports": IMPORTS, "rules": [
    {"name": "small", "decision": "auto_approved", "reason": "few mails", "when_proven": list(AT_MOST_3)}]}


class _Served:
    """What the bridge's credentials need from a service: a real ``clauz3 approval-service --policy``."""

    def __init__(self, project: Path, data: Path) -> None:
        import json
        import os
        import subprocess
        import sys

        policy = project.parent / "policy.json"
        policy.write_text(json.dumps(POLICY))
        env = {k: v for k, v in os.environ.items() if not k.startswith("CLAUZ3_")}
        env.update(CLAUZ3_HOME=str(data), CLAUZ3_APPROVAL_TOKEN=MCP_TOKEN, CLAUZ3_APPROVAL_DECISION_TOKEN=MCP_APPROVER)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "clauz3", "approval-service", "--port", "0", "--project", str(project),
             "--trusted-root", str(project / "tools" / "email" / "trusted"), "--import-root",
             str(project / ".clauz3"), "--import-root", str(project), "--policy", str(policy)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        assert self.proc.stdout is not None
        banner: dict[str, str] = {}
        while "CLAUZ3_APPROVAL_VERIFY_KEY" not in banner:
            line = self.proc.stdout.readline()
            assert line, self.proc.stderr.read() if self.proc.stderr else ""
            if "=" in line and line.startswith("CLAUZ3_"):
                key, value = line.strip().split("=", 1)
                banner[key] = value
        from clauz3.approvals.keys import VerifyKey

        self.url = banner["CLAUZ3_APPROVAL_SERVICE"]
        self.token = MCP_TOKEN
        self.verify_key = VerifyKey.from_text(banner["CLAUZ3_APPROVAL_VERIFY_KEY"])

    def records(self) -> list[dict[str, object]]:
        import httpx

        got = httpx.get(self.url + "/api/requests", headers={"Authorization": f"Bearer {MCP_APPROVER}"},
                        trust_env=False, timeout=30)
        body = got.json()
        return list(body["requests"] if isinstance(body, dict) else body)

    def decide(self, rid: str, decision: str) -> None:
        import httpx

        got = httpx.post(f"{self.url}/api/requests/{rid}/decision", json={"decision": decision},
                         headers={"Authorization": f"Bearer {MCP_APPROVER}"}, trust_env=False, timeout=30)
        assert got.status_code == 200, got.text

    def close(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=30)


async def test_mcp_run_of_ten_emails_under_an_at_most_3_policy_gets_a_card(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 11's worst case: a restricted agent's MCP ``run`` of ten emails was approved automatically."""
    import os

    from bridge.conftest import bridge_session, credentials, text_of
    from bridge.fakehost import FakeHost

    proj = Path(os.path.realpath(tmp_path)) / "proj"
    shutil.copytree(REPO / "examples" / "email" / "tools" / "email", proj / "tools" / "email",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (proj / ".clauz3").mkdir()
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    monkeypatch.setenv("CLAUZ3_HOME", str(data))
    # The program: its own (true) bound of 20, written with the library bound under the name the
    # old child used, right below a string whose form feeds moved the old child's rule into that string.
    ten = (HEADER.format(doc="") + f"from tools.email.trusted import contracts as {OLD_ALIAS}\n\n"
           + 'NOTE = """' + "\x0c" * 6 + "\n" + "text\n" * 8 + '"""\n\n\n'
           + f"@clauz3.guarantee({OLD_ALIAS}.at_most(count=20))\ndef main() -> None:\n" + sends(10))
    one = HEADER.format(doc="") + "@clauz3.guarantee(emails.at_most(1))\ndef main() -> None:\n" + sends(1)
    served = _Served(proj, data)
    try:
        with FakeHost(credentials(served, tmp_path)) as host:
            async with bridge_session(proj, host) as session:
                small = await session.call_tool("run", {"source": one, "request_id": "req_policy_one1"})
                assert small.structured_content["phase"] == "completed", text_of(small)
                auto = {str(r["request_id"]): r for r in served.records()}["req_policy_one1"]
                assert auto["decision"] == "auto_approved"  # the rule is live and does fire when it holds
                assert auto["presentation"]["proof"]["by"] == "authority"  # type: ignore[index]
                # the same program again (issue 13): the authority's proof is a cache hit, the solver skipped
                twice = await session.call_tool("run", {"source": one, "request_id": "req_policy_one2"})
                assert twice.structured_content["phase"] == "completed", text_of(twice)
                again = {str(r["request_id"]): r for r in served.records()}["req_policy_one2"]
                assert again["presentation"]["proof"]["cached"] is True  # type: ignore[index]

                pending = asyncio.ensure_future(session.call_tool("run", {"source": ten,
                                                                          "request_id": "req_policy_ten1"}))
                card: dict[str, object] | None = None
                for _ in range(600):
                    card = {str(r["request_id"]): r for r in served.records()}.get("req_policy_ten1")
                    if card is not None or pending.done():
                        break
                    await asyncio.sleep(0.1)
                assert card is not None, text_of(pending.result()) if pending.done() else "no request reached the service"
                assert card["state"] == "pending" and card["decision"] is None, card
                served.decide("req_policy_ten1", "rejected")
                result = await asyncio.wait_for(pending, 60)
                assert result.structured_content["phase"] != "completed", text_of(result)
    finally:
        served.close()
