"""Issue 12: "Approve and remember" covers every program proved at least as strict, and nothing else.

The real authority (profiles on, its own warm prover child: ``ProofVerifier``) behind its HTTP routes;
every request carries the honest claims of ``clauz3 prove``, as a worker sends them. A remembered
approval of "only bob@example.com, at most 1 email" then decides, without a card, a program with other
text and the same or stricter guarantees, and leaves to the person (pending) a weaker one, one for
another recipient, one that uses another library under the same-looking guarantees, and one whose
remembered guarantees were proved against a layer swapped in (and back) during the proof.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from clauz3.prover.verify import ProofVerifier

from .conftest import Harness, make_request

HEAD = ("import clauz3\n"
        "from tools.{lib}.trusted import contracts as emails\n"
        "from tools.{lib}.trusted.effects import send_email\n\n\n")
BOB = 'emails.only(["bob@example.com"])'


def program(guarantees: list[str], sends: list[tuple[str, str]], lib: str = "email") -> str:
    lines = [f"@clauz3.guarantee({g})" for g in guarantees] + ["def main() -> None:"]
    lines += [f"    send_email({addr!r}, {text!r})" for addr, text in sends] or ['    print("no email today")']
    return HEAD.format(lib=lib) + "\n".join(lines) + "\n"


REMEMBERED = program([BOB, "emails.at_most(1)"], [("bob@example.com", "Hi from clauz3")])


def trusted_roots(project: Path, libs: tuple[str, ...]) -> list[str]:
    return [str(project / "tools" / lib / "trusted") for lib in libs]


def claims(project: Path, source: str, libs: tuple[str, ...], rid: str) -> dict[str, Any]:
    """The request a worker builds: ``clauz3 prove``'s own guarantees, coverage and proof list."""
    path = project.parent / f"{rid}.py"
    path.write_text(source)
    roots = [a for lib in libs for a in ("--trusted-root", str(project / "tools" / lib / "trusted"))]
    out = subprocess.run([sys.executable, "-m", "clauz3", "prove", "--json", "--no-cache", *roots,
                          "--import-root", str(project), str(path)], cwd=project, capture_output=True, text=True,
                         timeout=180, env={k: v for k, v in os.environ.items() if k != "CLAUZ3_PROOF_CACHE"})
    entry = json.loads(out.stdout)["entries"][0]
    assert entry["status"] == "proved", entry
    keys = ("domain", "status", "missing_required", "missing_recommended")
    obligations = entry["obligations"]
    return make_request(project, request_id=rid, program=source, trusted_roots=trusted_roots(project, libs),
                        program_sha256=hashlib.sha256(source.encode()).hexdigest(),
                        guarantees=[o["expression"] for o in obligations if o["kind"] == "guarantee"],
                        coverage=[{k: c[k] for k in keys} for c in entry["coverage"]],
                        proofs=[{"name": "main", "conclusion": o["conclusion"], "description": o["description"]}
                                for o in obligations])


def add_post_library(project: Path) -> None:
    """A second library, ``tools/post``: the email library's code under another name."""
    shutil.copytree(project / "tools" / "email", project / "tools" / "post")
    for path in (project / "tools" / "post").rglob("*"):
        if path.is_file():
            path.write_text(path.read_text().replace("tools.email", "tools.post").replace("name: email",
                                                                                          "name: post"))


class Remembering:
    """A harness whose authority proves every request itself, with REMEMBERED approved and remembered."""

    def __init__(self, h: Harness, verifier: ProofVerifier, libs: tuple[str, ...]) -> None:
        self.h, self.verifier, self.libs = h, verifier, libs
        first = self.submit("req_remembered", REMEMBERED)
        assert first["state"] == "pending" and first["profile"]["eligible"] is True, first
        # Each remember button states its own reach, in the card's sentences (also on the standalone page).
        summary = first["presentation"]["summary"]
        assert "at least as strict as these" in summary["scope"]
        assert "exactly these guarantees" in summary["reject_scope"]
        page = h.client.get("/ui/requests/req_remembered", headers=h.cookie()).text
        assert "at least as strict as these" in page and "will be rejected without asking" in page
        decided = h.decide("req_remembered", {"decision": "approved_remember"}).json()
        assert decided["decision"] == "approved_remember", decided

    def submit(self, rid: str, source: str, libs: tuple[str, ...] | None = None) -> dict[str, Any]:
        answer = self.h.submit(claims(self.h.project, source, libs or self.libs, rid))
        assert answer.status_code == 201, answer.text
        body: dict[str, Any] = answer.json()
        return body


@contextmanager
def remembered(data: Path, project: Path, libs: tuple[str, ...] = ("email",),
               verify: ProofVerifier | None = None) -> Iterator[Remembering]:
    if "post" in libs:
        add_post_library(project)
    verify = verify or ProofVerifier()
    h = Harness(data, project, profiles=True, verify=verify)
    # The conversation's authorised layer holds every library of the test (both roots, as a workspace does).
    h.token = h.authority.register_conversation(None, trusted_roots(project, libs), [str(project)], token=h.token)
    with h.client:
        yield Remembering(h, verify, libs)


@pytest.fixture
def remembering(data_dir: Path, project: Path) -> Iterator[Remembering]:
    with remembered(data_dir, project) as r:
        yield r


def auto_approved_by_proof(record: dict[str, Any]) -> None:
    assert record["state"] == "approved" and record["decision"] == "auto_approved", record
    assert record["decided_by"] == "profile" and record["rule"]["match"] == "at_least_as_strict", record["rule"]
    assert record["rule"]["guarantees"] == ["Every email goes to bob@example.com.", "At most 1 email is sent."]
    assert record["receipt_issued"] is True


def test_same_guarantees_other_text_is_the_exact_fast_path(remembering: Remembering) -> None:
    other = REMEMBERED.replace("Hi from clauz3", "Lunch moved to one")
    record = remembering.submit("req_other_text", other)
    assert record["decision"] == "auto_approved" and record["decided_by"] == "profile"
    assert "match" not in record["rule"]  # the signature matched: no proof was needed


@pytest.mark.parametrize("guarantees", [
    [BOB, "emails.at_most(1)", "emails.unique_recipients()"],  # one more guarantee
    [BOB, "emails.at_most(count=1)", "emails.content_length_at_most(100)"],  # same bound, written otherwise
    ['emails.only(["bob@example.com"])', "emails.recipient_at_most('bob@example.com', 1)"],  # implies at most 1
], ids=["one_more", "rewritten_plus_length", "implied"])
def test_stricter_guarantees_other_text_run_without_a_card(remembering: Remembering, guarantees: list[str]) -> None:
    source = program(guarantees, [("bob@example.com", "Totally different words")])
    auto_approved_by_proof(remembering.submit("req_stricter", source))


def test_no_send_at_all_keeps_every_remembered_guarantee(remembering: Remembering) -> None:
    auto_approved_by_proof(remembering.submit("req_none", program(["emails.none()"], [])))


def test_covered_means_proved_to_keep_them_not_the_wording(remembering: Remembering) -> None:
    """Matching is by proof of what the program does (docs/decisions.md): a program whose own words are
    looser but which provably emails only bob, once, is inside the remembered approval."""
    loose = program(['emails.only(["bob@example.com", "ann@example.com"])', "emails.at_most(2)"],
                    [("bob@example.com", "just one")])
    auto_approved_by_proof(remembering.submit("req_loose", loose))


@pytest.mark.parametrize(("guarantees", "sends"), [
    ([BOB, "emails.at_most(2)"], [("bob@example.com", "one"), ("bob@example.com", "two")]),  # weaker count
    (['emails.only(["bob@example.com", "ann@example.com"])', "emails.at_most(1)"],
     [("ann@example.com", "hello")]),  # another recipient
], ids=["at_most_2", "another_recipient"])
def test_weaker_guarantees_get_a_card(remembering: Remembering, guarantees: list[str],
                                      sends: list[tuple[str, str]]) -> None:
    record = remembering.submit("req_weaker", program(guarantees, sends))
    assert record["state"] == "pending" and record["decision"] is None, record


def test_another_alias_for_the_same_imports_is_covered(remembering: Remembering) -> None:
    source = program([BOB, "emails.at_most(1)", "emails.unique_recipients()"], [("bob@example.com", "hi")])
    renamed = source.replace("contracts as emails", "contracts as mail").replace("emails.", "mail.")
    auto_approved_by_proof(remembering.submit("req_alias", renamed))


def test_another_import_gets_a_card(remembering: Remembering) -> None:
    """A stricter program that imports one more thing can call functions the remembered one could not."""
    source = "import math\n" + program([BOB, "emails.at_most(1)", "emails.unique_recipients()"],
                                       [("bob@example.com", "hi")])
    assert remembering.submit("req_import", source)["state"] == "pending"
    effects = source.removeprefix("import math\n").replace("import send_email", "import send_email as post")
    # The same effect under another name reaches nothing new: covered.
    auto_approved_by_proof(remembering.submit("req_effect_alias", effects.replace("    send_email(", "    post(")))


def test_same_looking_guarantees_from_another_library_get_a_card(data_dir: Path, project: Path) -> None:
    source = program([BOB, "emails.at_most(1)", "emails.unique_recipients()"], [("bob@example.com", "hi")],
                     lib="post")
    with remembered(data_dir, project, ("email", "post")) as r:
        record = r.submit("req_post", source)
        assert record["guarantees"][0] == BOB  # reads the same as the remembered program's
        assert record["state"] == "pending" and record["decision"] is None, record
        # Under the remembered library the same program is covered (two roots are not the cause).
        auto_approved_by_proof(r.submit("req_email", source.replace("tools.post", "tools.email")))


def test_changed_library_file_gets_a_card(remembering: Remembering) -> None:
    contracts = remembering.h.project / "tools" / "email" / "trusted" / "contracts.py"
    contracts.write_text(contracts.read_text() + "\n# edited after remembering\n")
    source = program([BOB, "emails.at_most(1)", "emails.unique_recipients()"], [("bob@example.com", "hi")])
    assert remembering.submit("req_changed", source)["state"] == "pending"


class SwappingVerifier(ProofVerifier):
    """The real verifier; a same-user process swaps ``at_most`` for a contract that always holds while the
    remembered guarantees are being proved, and puts the original back before anything else looks."""

    contracts: Path | None = None
    swaps = 0

    def entails_on_layer(self, query: Any) -> tuple[bool, str]:
        assert self.contracts is not None
        original = self.contracts.read_text()
        self.contracts.write_text(original.replace("return effect(send_email).count() <= count",
                                                   "return effect(send_email).count() >= 0"))
        try:
            self.swaps += 1
            return super().entails_on_layer(query)
        finally:
            self.contracts.write_text(original)


def test_guarantees_proved_against_a_swapped_layer_get_a_card(data_dir: Path, project: Path) -> None:
    verifier = SwappingVerifier()
    verifier.contracts = project / "tools" / "email" / "trusted" / "contracts.py"
    # Two emails to bob: its own at_most(2) is proved on the real layer; the remembered at_most(1) holds
    # only on the swapped one, so without binding the verdict to one layer this would run unasked.
    source = program([BOB, "emails.at_most(2)"], [("bob@example.com", "one"), ("bob@example.com", "two")])
    with remembered(data_dir, project, verify=verifier) as r:
        record = r.submit("req_swapped", source)
    assert verifier.swaps == 1  # the entailment did run, on the swapped files
    assert record["state"] == "pending" and record["decision"] is None, record


def test_reject_and_remember_stays_exact(data_dir: Path, project: Path) -> None:
    h = Harness(data_dir, project, profiles=True, verify=ProofVerifier())
    with h.client:
        r = Remembering.__new__(Remembering)
        r.h, r.libs = h, ("email",)
        assert r.submit("req_first", REMEMBERED)["state"] == "pending"
        assert h.decide("req_first", {"decision": "rejected", "remember": True}).json()["decision"] == "rejected"
        same = r.submit("req_same", REMEMBERED.replace("Hi from clauz3", "other words"))
        assert same["decision"] == "auto_rejected" and same["decided_by"] == "profile"
        stricter = program([BOB, "emails.at_most(1)", "emails.unique_recipients()"], [("bob@example.com", "x")])
        assert r.submit("req_stricter", stricter)["state"] == "pending"  # the person decides
