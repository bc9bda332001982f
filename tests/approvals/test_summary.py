"""Issue 12: the card's plain-language summary, generated from the prover's effect facts.

Each program is proved by the real pipeline against the example email library; its facts come from
``clauz3.prover.facts`` on the checked program and reach the real authority inside the request,
which builds the card's summary from them and from its own scan of the layer.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from clauz3.approvals import summary

from .conftest import Harness, make_request, roots

HEADER = '''import clauz3
from tools.email.trusted import contracts as emails
from tools.email.trusted.effects import send_email


'''


_CHILD = """
import json, sys
from pathlib import Path
from clauz3.language import check_program
from clauz3.language.layer import load_layer
from clauz3.prover.facts import effect_facts
from clauz3.prover.pipeline import ProofRequest, prove_file
path, trusted, imports = Path(sys.argv[1]), [Path(t) for t in json.loads(sys.argv[2])], [Path(sys.argv[3])]
out = prove_file(ProofRequest(path=path, trusted_roots=trusted, import_roots=imports, use_cache=False),
                 project_root=imports[0])
print(json.dumps({"verdict": out.verdict, "facts": effect_facts(out.program) if out.program else None,
                  "stderr": out.stderr, "obligations": [(o.conclusion, o.description)
                                                        for o in out.entry.obligations]}))
"""


FILES = Path(__file__).resolve().parents[2] / "src" / "clauz3" / "stdlib" / "filesystem" / "tools" / "filesystem"


def with_files(h: Harness) -> tuple[list[str], dict[str, str]]:
    """Add the real filesystem library to the project; (trusted roots, submitter headers) for both libraries."""
    shutil.copytree(FILES, h.project / "tools" / "filesystem", ignore=shutil.ignore_patterns("__pycache__"))
    trusted, imports = roots(h.project)
    trusted = [*trusted, str(h.project / "tools" / "filesystem" / "trusted")]
    token = h.authority.register_conversation("conv-files", trusted, imports)
    return trusted, {"Authorization": f"Bearer {token}"}


def proved(project: Path, body: str, name: str = "prog.py", trusted: list[str] | None = None,
           header: str = HEADER) -> tuple[str, dict[str, Any]]:
    """Prove ``body`` for real in a fresh process (one layer per process) and return its effect facts."""
    source = header + body
    path = project / name
    path.write_text(source)
    default, imports = roots(project)
    done = subprocess.run([sys.executable, "-c", _CHILD, str(path), json.dumps(trusted or default), imports[0]],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert doc["verdict"] == "proved" and doc["facts"] is not None, doc
    return source, doc["facts"]


def card(h: Harness, source: str, facts: dict[str, Any], guarantees: list[str], rid: str,
         trusted: list[str] | None = None, headers: dict[str, str] | None = None,
         coverage: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    body = make_request(h.project, request_id=rid, program=source, guarantees=guarantees, effects=facts,
                        program_sha256=hashlib.sha256(source.encode()).hexdigest())
    if trusted is not None:
        body["trusted_roots"] = trusted
    if coverage is not None:
        body["coverage"] = coverage
    response = h.client.post("/api/requests", json=body, headers=headers or h.sub())
    assert response.status_code in (200, 201), response.text
    return response.json()["presentation"]["summary"]


def test_literal_email_reads_as_one_sentence(harness: Harness) -> None:
    source, facts = proved(harness.project, '''@clauz3.guarantee(emails.only(["bob@example.com"]))
@clauz3.guarantee(emails.at_most(1))
def main() -> None:
    send_email("bob@example.com", "Hi from clauz3")
''')
    s = card(harness, source, facts, ['emails.only(["bob@example.com"])', "emails.at_most(1)"], "req_sum_0001")
    assert s["plan"]["sentences"] == ["Will send 1 mock email to bob@example.com: “Hi from clauz3”"]
    assert [g["text"] for g in s["guarantees"]] == ["Every email goes to bob@example.com.", "At most 1 email is sent."]
    assert s["simulated"] is True
    assert [lib["domain"] for lib in s["libraries"]] == ["email"]
    assert "simulated" in s["libraries"][0]["line"]
    assert "at least as strict as these" in s["scope"] and "At most 1 email is sent." in s["scope"]
    assert "exactly these guarantees" in s["reject_scope"] and "At most 1 email is sent." in s["reject_scope"]
    assert s["warnings"] == []


FILES_HEADER = HEADER.replace("\n\n\n", "\nfrom tools.filesystem.trusted.effects import read_file\n\n\n", 1)


def test_branching_program_reads_as_bounds(harness: Harness) -> None:
    trusted, headers = with_files(harness)
    source, facts = proved(harness.project, '''@clauz3.guarantee(emails.only(["bob@example.com", "ann@example.com"]))
@clauz3.guarantee(emails.at_most(2))
def main() -> None:
    send_email("bob@example.com", "Status")
    if "urgent" in read_file("notes.txt"):
        send_email("ann@example.com", "Status")
''', trusted=trusted, header=FILES_HEADER)
    s = card(harness, source, facts, ['emails.only(["bob@example.com", "ann@example.com"])', "emails.at_most(2)"],
             "req_sum_0002", trusted=trusted, headers=headers)
    text, read = s["plan"]["sentences"]
    assert read == "Will read 1 file: notes.txt."
    assert text.startswith("May send mock emails only to bob@example.com or ann@example.com.")
    assert "at most 2 emails are sent" in text
    assert "every email goes to one of bob@example.com or ann@example.com" in text


def test_computed_recipient_is_not_guessed(harness: Harness) -> None:
    trusted, headers = with_files(harness)
    source, facts = proved(harness.project, '''@clauz3.guarantee(emails.at_most(1))
def main() -> None:
    send_email(read_file("name.txt") + "@example.com", "Hello")
''', trusted=trusted, header=FILES_HEADER)
    s = card(harness, source, facts, ["emails.at_most(1)"], "req_sum_0003", trusted=trusted, headers=headers)
    _read, text = s["plan"]["sentences"]
    assert "@example.com" not in text.split("Proved")[0], text  # no address the proof did not fix
    assert text.startswith("Will send 1 mock email"), text


def test_grammar_of_guarantee_sentences() -> None:
    assert summary.guarantee_text("at most {count} emails are sent", {"count": 1}, None, "x")[0] == \
        "At most 1 email is sent."
    assert summary.guarantee_text("at most {count} emails are sent", {"count": 3}, None, "x")[0] == \
        "At most 3 emails are sent."
    text = summary.guarantee_text("the filesystem library reads only the files {paths}",
                                  {"paths": ["a.txt", "b.txt", "c.txt"]}, None, "x")[0]
    assert text == "The filesystem library reads only the files a.txt, b.txt and c.txt."
    assert "[" not in text and '"' not in text


def test_outcome_and_failure_sentences() -> None:
    mail = summary.Call("send_email", "email", True, {"addr": "bob@example.com", "msg": "Hi"}, ("addr", "msg"))
    assert summary.outcome([mail]).sentences == ["Mock: would have sent 1 email to bob@example.com: “Hi”"]
    write = summary.Call("write_file", "filesystem", False, {"path": "notes/todo.txt", "content": "x"},
                         ("path", "content"))
    assert summary.outcome([write]).sentences == ["Wrote 1 file: notes/todo.txt."]
    said = summary.failure(mail, 12, "Every email goes to ann@example.com.", None)
    assert said == ("This program would send a mock email to bob@example.com (line 12), but the guarantee says "
                    "every email goes to ann@example.com.")


def _run(project: Path, data: Path, source: str, rid: str, extra: tuple[str, ...] = ()) -> dict[str, Any]:
    """One real run: real worker, real mock authority (approves), real ledger; the final record."""
    from clauz3.approvals.mock import MockApprovalService
    from clauz3.runs.supervisor import RunConfig, Supervisor

    data.mkdir(mode=0o700, exist_ok=True)
    trusted, imports = roots(project)
    trusted = [*trusted, *extra]
    with MockApprovalService(data, project) as svc:
        config = RunConfig(source=source, project=project, trusted_roots=trusted, import_roots=imports,
                           service_url=svc.url, submission_token=svc.token, verify_key=svc.verify_key.text,
                           data_dir=data, use_cache=False, request_id=rid)
        return Supervisor(config).run().record.to_json()


def test_run_record_says_what_happened(project: Path, data_dir: Path) -> None:
    source = HEADER + '''@clauz3.guarantee(emails.at_most(2))
def main() -> None:
    for who in ["bob@example.com", "ann@example.com"]:
        send_email(who, "Hi from clauz3")
'''
    record = _run(project, data_dir, source, "req_sum_run_01")
    assert record["phase"] == "completed", record
    assert record["summary"]["kind"] == "outcome"
    assert record["summary"]["sentences"] == [
        "Mock: would have sent 2 emails to bob@example.com and ann@example.com."]


def test_refused_run_says_why_in_one_sentence(project: Path, data_dir: Path) -> None:
    source = HEADER + '''@clauz3.guarantee(emails.only(["ann@example.com"]))
def main() -> None:
    send_email("bob@example.com", "Hi from clauz3")
'''
    record = _run(project, data_dir, source, "req_sum_run_02")
    assert record["phase"] == "refused" and record["reason"] == "proof_failed", record
    excerpt = record["summary"].pop("excerpt")
    assert [x["n"] for x in excerpt if x["mark"]] == [8]
    assert excerpt[-1] == {"n": 8, "text": '    send_email("bob@example.com", "Hi from clauz3")', "mark": True}
    assert record["summary"] == {
        "kind": "refusal", "line": 8, "warnings": [], "blocks": [],
        "sentences": ["This program would send a mock email to bob@example.com (line 8), but the guarantee says "
                      "every email goes to ann@example.com."]}


def test_a_broken_count_names_every_breaking_call(project: Path, data_dir: Path) -> None:
    source = HEADER + '''@clauz3.guarantee(emails.at_most(1))
def main() -> None:
    send_email("bob@example.com", "Hi")
    send_email("ann@example.com", "Hi")
'''
    record = _run(project, data_dir, source, "req_sum_run_03")
    assert record["phase"] == "refused", record
    assert record["summary"]["sentences"] == [
        "This program would send 2 mock emails to bob@example.com and ann@example.com (lines 8 and 9), but the "
        "guarantee says at most 1 email is sent."]
    assert [x["n"] for x in record["summary"]["excerpt"] if x["mark"]] == [8, 9]


GATE = Path(__file__).resolve().parents[1] / "browser" / "libraries" / "gate"


def test_a_path_dependent_refusal_says_which_result_leads_there(project: Path, data_dir: Path) -> None:
    shutil.copytree(GATE, project / "tools" / "gate", ignore=shutil.ignore_patterns("__pycache__"))
    source = (
        "import clauz3\nfrom tools.gate.trusted import contracts as gate\n"
        "from tools.gate.trusted.effects import reading, step\n\n\n"
        "@clauz3.guarantee(gate.steps_at_most(count=1))\ndef main() -> None:\n    n = reading()\n"
        "    step(\"first\")\n    if n > 3:\n        step(\"second\")\n")
    record = _run(project, data_dir, source, "req_sum_run_04", (str(project / "tools" / "gate" / "trusted"),))
    assert record["phase"] == "refused", record
    (sentence,) = record["summary"]["sentences"]
    assert sentence.startswith("This program would step first and second (lines 9 and 11), but the guarantee says ")
    assert sentence.endswith(" — for example when reading() at line 8 returns 4."), sentence
