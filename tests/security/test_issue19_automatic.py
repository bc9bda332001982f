"""Issue 19, classes 1 and 2: an automatic decision covers only what it was about.

Real ``clauz3 approval-service`` (its own warm prover child proves every request and evaluates every
rule), real ``clauz3 run`` (real worker, real sandbox), real files. Class 1: an operator allow rule
"at most 3 emails" is proved vacuously on a program that sends no email and deletes a file; before
the fix the service approved it and README.md was gone. Class 2: a remembered approval of a program
that wrote notes.txt through the filesystem library's effects module approved, by module, a program
that removes README.md. Each attack has a benign twin that the same rule does decide automatically,
so a card here is the rule's scope working, not the rule broken.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

REPO = Path(__file__).resolve().parents[2]
APPROVER = "issue19-approver-token-0123456789abcdefgh"
SUBMITTER = "issue19-submission-token-0123456789abcdef"
ROOTS = ("tools/email/trusted", "tools/filesystem/trusted")
IMPORT_ROOTS = ("--import-root", ".clauz3", "--import-root", ".")  # the bridge's layer, in its order

HEAD = '''import clauz3
from tools.email.trusted import contracts as emails
from tools.email.trusted.effects import send_email
from tools.filesystem.trusted import contracts as files
from tools.filesystem.trusted import effects as fs


'''
ONE_EMAIL = HEAD + 'def main() -> None:\n    send_email("bob@example.com", "hello")\n'
DELETES = HEAD + 'def main() -> None:\n    fs.remove("README.md")\n'
DELETES_AND_EMAILS = HEAD + 'def main() -> None:\n    send_email("bob@example.com", "hi")\n    fs.remove("README.md")\n'
AT_MOST_3 = {"name": "at-most-3-emails", "decision": "auto_approved", "reason": "few mails",
             "when_proven": ["mail.at_most(count=3)"]}
NO_DELETES = {"name": "never-delete", "decision": "auto_rejected", "reason": "no deletes",
              "unless_proven": ["files.no_deletes()"]}
IMPORTS = {"mail": "tools.email.trusted.contracts", "files": "tools.filesystem.trusted.contracts"}


def writes(path: str, bound: int = 1) -> str:
    return HEAD + f"@clauz3.guarantee(files.writes_at_most({bound}))\ndef main() -> None:\n" \
        f"    fs.write_file({path!r}, 'notes')\n"


def removes(bound: int = 1) -> str:
    return HEAD + f"@clauz3.guarantee(files.writes_at_most({bound}))\ndef main() -> None:\n" \
        "    fs.remove('README.md')\n"


def env_for(data: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAUZ3_")}
    env.update(CLAUZ3_HOME=str(data), **extra)
    return env


class Service:
    """``clauz3 approval-service`` for the project, with an approver token for the test's decisions."""

    def __init__(self, project: Path, data: Path, *flags: str) -> None:
        roots = [a for r in ROOTS for a in ("--trusted-root", r)]
        self.errors = project.parent / "approval-service.err"  # read on failure (not a pipe nobody drains)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "clauz3", "approval-service", "--port", "0", *roots, *IMPORT_ROOTS,
             *flags], cwd=project, stdout=subprocess.PIPE, stderr=self.errors.open("w"), text=True,
            env=env_for(data, CLAUZ3_APPROVAL_TOKEN=SUBMITTER, CLAUZ3_APPROVAL_DECISION_TOKEN=APPROVER))
        assert self.proc.stdout is not None
        self.banner: dict[str, str] = {}
        while "CLAUZ3_APPROVAL_VERIFY_KEY" not in self.banner:
            line = self.proc.stdout.readline()
            assert line, self.errors.read_text()
            if line.startswith("CLAUZ3_") and "=" in line:
                key, value = line.strip().split("=", 1)
                self.banner[key] = value
        self.url = self.banner["CLAUZ3_APPROVAL_SERVICE"]
        from clauz3.approvals.keys import VerifyKey

        self.verify_key = VerifyKey.from_text(self.banner["CLAUZ3_APPROVAL_VERIFY_KEY"])
        self.token = SUBMITTER

    def get(self, path: str) -> httpx.Response:
        return httpx.get(self.url + path, headers={"Authorization": f"Bearer {APPROVER}"}, trust_env=False,
                         timeout=30)

    def records(self) -> dict[str, dict[str, Any]]:
        body = self.get("/api/requests").json()
        return {str(r["request_id"]): r for r in (body["requests"] if isinstance(body, dict) else body)}

    def decide(self, rid: str, decision: str) -> dict[str, Any]:
        got = httpx.post(f"{self.url}/api/requests/{rid}/decision", json={"decision": decision},
                         headers={"Authorization": f"Bearer {APPROVER}"}, trust_env=False, timeout=30)
        assert got.status_code == 200, got.text
        return dict(got.json())

    def close(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=30)


class Run:
    """One ``clauz3 run`` of ``source`` in the project, started now; ``wait`` for its output."""

    def __init__(self, project: Path, data: Path, service: Service, source: str, rid: str) -> None:
        path = project / f"{rid}.py"
        path.write_text(source)
        roots = [a for r in ROOTS for a in ("--trusted-root", r)]
        self.rid = rid
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "clauz3", "run", *roots, *IMPORT_ROOTS, "--request-id", rid,
             "--approval-timeout", "120", "--no-cache", path.name], cwd=project, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True,
            env=env_for(data, CLAUZ3_APPROVAL_SERVICE=service.url, CLAUZ3_APPROVAL_TOKEN=service.token,
                        CLAUZ3_APPROVAL_VERIFY_KEY=service.verify_key.text))

    def wait(self) -> tuple[int, str]:
        out, err = self.proc.communicate(timeout=180)
        return self.proc.returncode, out + err


def card(service: Service, run: Run) -> dict[str, Any]:
    """The run's record once the service has it (automatic decisions are made before it is listed)."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        found = service.records().get(run.rid)
        if found is not None:
            return found
        if run.proc.poll() is not None:
            code, out = run.wait()
            raise AssertionError(f"the run ended before its request reached the service ({code}): {out}\n"
                                 f"service: {service.errors.read_text()[-3000:]}")
        time.sleep(0.1)
    raise AssertionError("no request reached the service")


def make_project(root: Path) -> Path:
    proj = Path(os.path.realpath(root)) / "proj"
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(REPO / "examples" / "email" / "tools" / "email", proj / "tools" / "email", ignore=ignore)
    shutil.copytree(REPO / "src" / "clauz3" / "stdlib" / "filesystem" / "tools" / "filesystem",
                    proj / "tools" / "filesystem", ignore=ignore)
    (proj / ".clauz3").mkdir()
    (proj / "README.md").write_text("keep me\n")
    return proj


def make_data(root: Path) -> Path:
    home = root / "data"
    home.mkdir(mode=0o700)
    return home


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return make_project(tmp_path)


@pytest.fixture
def data(tmp_path: Path) -> Path:
    return make_data(tmp_path)


# One service per group of tests (each start costs a prover child): the tests of a group share its
# project, and each leaves README.md in place when it passes.
@pytest.fixture(scope="module")
def policy_world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path, Service]]:
    root = tmp_path_factory.mktemp("policy")
    project, data = make_project(root), make_data(root)
    service = policy_service(project, data, AT_MOST_3)
    try:
        yield project, data, service
    finally:
        service.close()


def policy_service(project: Path, data: Path, *rules: dict[str, Any]) -> Service:
    policy = project.parent / "policy.json"  # outside the project: the agent cannot write it
    policy.write_text(json.dumps({"version": 1, "imports": IMPORTS, "rules": list(rules)}))
    return Service(project, data, "--policy", str(policy))




# ------------------------------------------------------------------------- class 1: policy vacuity

def test_a_vacuous_email_rule_does_not_approve_a_delete_through_clauz3_run(
        policy_world: tuple[Path, Path, Service]) -> None:
    project, data, at_most_3 = policy_world
    code, out = Run(project, data, at_most_3, ONE_EMAIL, "req_one_email").wait()
    assert code == 0 and "approval: auto_approved" in out, out  # the rule is live and fires inside its scope

    run = Run(project, data, at_most_3, DELETES, "req_deletes")
    record = card(at_most_3, run)
    assert record["state"] == "pending" and record["decision"] is None, record
    [line] = record["automatic"]["not_decided"]
    assert line["text"] == ("Not decided by the policy rule 'at-most-3-emails': this program also calls remove of "
                            "the filesystem library, which the rule does not cover."), line
    # The card's reason line: the standalone approval page renders this very record with it.
    from html import escape

    from clauz3.approvals.ui import request_page

    assert f'data-kind="note">{escape(line["text"])}</p>' in request_page(record)
    at_most_3.decide("req_deletes", "rejected")
    code, out = run.wait()
    assert code != 0 and (project / "README.md").exists(), out


def test_an_email_rule_does_not_approve_emails_plus_a_delete(policy_world: tuple[Path, Path, Service]) -> None:
    """Inside the rule's library and outside it at once: the part outside still goes to the person."""
    project, data, at_most_3 = policy_world
    run = Run(project, data, at_most_3, DELETES_AND_EMAILS, "req_mixed")
    record = card(at_most_3, run)
    assert record["state"] == "pending", record
    assert "remove" in record["automatic"]["not_decided"][0]["text"]
    at_most_3.decide("req_mixed", "rejected")
    run.wait()
    assert (project / "README.md").exists()


def test_deny_rules_still_apply_to_every_program(project: Path, data: Path) -> None:
    service = policy_service(project, data, NO_DELETES, AT_MOST_3)
    try:
        code, out = Run(project, data, service, DELETES_AND_EMAILS, "req_denied").wait()
        record = service.records()["req_denied"]
        assert record["decision"] == "auto_rejected" and record["rule"]["name"] == "never-delete", record
        assert code != 0 and (project / "README.md").exists(), out
        code, out = Run(project, data, service, ONE_EMAIL, "req_allowed").wait()
        assert code == 0 and "approval: auto_approved" in out, out
    finally:
        service.close()


async def test_a_vacuous_email_rule_does_not_approve_a_delete_through_mcp_run(
        policy_world: tuple[Path, Path, Service], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import asyncio

    project, data, at_most_3 = policy_world

    from bridge.conftest import bridge_session, credentials, text_of
    from bridge.fakehost import FakeHost

    monkeypatch.setenv("CLAUZ3_HOME", str(data))
    with FakeHost(credentials(at_most_3, tmp_path)) as host:
        roots = [a for r in ROOTS for a in ("--trusted-root", str(project / r))]
        async with bridge_session(project, host, libraries=False, extra=roots) as session:
            small = await session.call_tool("run", {"source": ONE_EMAIL, "request_id": "req_mcp_one"})
            assert small.structured_content["phase"] == "completed", text_of(small)
            assert at_most_3.records()["req_mcp_one"]["decision"] == "auto_approved"
            pending = asyncio.ensure_future(session.call_tool("run", {"source": DELETES, "request_id": "req_mcp_rm"}))
            record: dict[str, Any] | None = None
            for _ in range(1200):
                record = at_most_3.records().get("req_mcp_rm")
                if record is not None or pending.done():
                    break
                await asyncio.sleep(0.1)
            assert record is not None, text_of(pending.result()) if pending.done() else "no request"
            assert record["state"] == "pending" and record["decision"] is None, record
            at_most_3.decide("req_mcp_rm", "rejected")
            result = await asyncio.wait_for(pending, 60)
            assert result.structured_content["phase"] != "completed", text_of(result)
    assert (project / "README.md").exists()


# ------------------------------------------------------------------- class 2: remembered reach by module

@pytest.fixture(scope="module")
def remembered_world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path, Service]]:
    """A remembered approval of a program that wrote notes.txt through ``effects as fs``."""
    root = tmp_path_factory.mktemp("remembered")
    project, data = make_project(root), make_data(root)
    service = Service(project, data, "--profiles")
    try:
        run = Run(project, data, service, writes("notes.txt"), "req_notes")
        first = card(service, run)
        assert first["state"] == "pending" and first["profile"]["eligible"] is True, first
        service.decide("req_notes", "approved_remember")
        code, out = run.wait()
        assert code == 0 and (project / "notes.txt").exists(), out
        yield project, data, service
    finally:
        service.close()


def test_a_remembered_write_does_not_cover_a_remove_of_the_same_module(
        remembered_world: tuple[Path, Path, Service]) -> None:
    project, data, remembered = remembered_world
    code, out = Run(project, data, remembered, writes("other.txt"), "req_other_write").wait()
    assert code == 0 and "approval: auto_approved" in out, out  # same effect, other file: remembered

    run = Run(project, data, remembered, removes(), "req_remove")  # same signature: guarantees, imports
    record = card(remembered, run)
    assert record["state"] == "pending" and record["decision"] is None, record
    assert record["profile"]["signature"] == remembered.records()["req_notes"]["profile"]["signature"]
    [line] = record["automatic"]["not_decided"]
    assert line["text"] == ("Not decided by your remembered approval: this program also calls remove of the "
                            "filesystem library, which the approved program did not do."), line
    remembered.decide("req_remove", "rejected")
    run.wait()
    assert (project / "README.md").exists()


def test_a_stricter_program_with_a_new_effect_is_not_covered_by_proof(
        remembered_world: tuple[Path, Path, Service]) -> None:
    """The at-least-as-strict path (issue 12): writes_at_most(0) keeps the remembered writes_at_most(1),
    vacuously, on a program that removes a file; the remembered program never removed anything."""
    project, data, remembered = remembered_world
    run = Run(project, data, remembered, removes(0), "req_remove_strict")
    record = card(remembered, run)
    assert record["state"] == "pending" and record["decision"] is None, record
    assert "remove" in record["automatic"]["not_decided"][0]["text"]
    remembered.decide("req_remove_strict", "rejected")
    run.wait()
    assert (project / "README.md").exists()


def test_the_remember_confirmation_names_the_effects_a_rule_covers(
        remembered_world: tuple[Path, Path, Service]) -> None:
    first = remembered_world[2].records()["req_notes"]
    assert first["presentation"]["summary"]["covers"] == "Covers only: writes files with write_file — nothing else."
