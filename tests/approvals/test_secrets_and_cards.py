"""CRED-3/CRED-6 and §10: secret files, no secret in pages/JSON/stores, card data from the layer."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from clauz3.approvals.keys import read_signing_key_file, write_keypair
from clauz3.storage.secretfiles import InsecureFileError, read_secret

from .conftest import Harness, make_request

RID = "req_00000001"


def test_secret_file_checks(tmp_path: Path) -> None:
    key, signing, _ = write_keypair(tmp_path / "keys")
    assert read_signing_key_file(signing).text == key.text
    link = tmp_path / "keys" / "link.key"
    link.symlink_to(signing)
    with pytest.raises(InsecureFileError):
        read_secret(link)
    open_dir = tmp_path / "open"
    open_dir.mkdir()
    os.chmod(open_dir, 0o777)
    (open_dir / "k").write_text(key.text)
    os.chmod(open_dir / "k", 0o600)
    with pytest.raises(InsecureFileError):
        read_secret(open_dir / "k")
    assert repr(key).startswith("SigningKey(kid=") and key.text not in repr(key)


def test_no_secret_leaves_through_pages_json_or_store(data_dir: Path, project: Path) -> None:
    h = Harness(data_dir, project, profiles=True)
    with h.client:
        h.submit(make_request(h.project))
        h.decide(RID, {"decision": "approved_remember"})
        receipt = h.client.get(f"/api/requests/{RID}", headers=h.sub()).json()["receipt"]
        secrets = [h.token, h.approver, receipt, receipt.split(".")[2], h.authority._key.text]
        seen = [
            h.client.get("/ui", headers=h.cookie()).text,
            h.client.get(f"/ui/requests/{RID}", headers=h.cookie()).text,
            h.client.get("/ui/profile", headers=h.cookie()).text,
            h.client.get("/api/requests", headers=h.appr()).text,
            h.client.get(f"/api/requests/{RID}", headers=h.appr()).text,
            h.client.get("/api/service", headers=h.appr()).text,
            h.client.get("/api/profile", headers=h.appr()).text,
        ]
    for path in data_dir.rglob("*"):
        if path.is_file():
            seen.append(path.read_bytes().decode("latin-1"))
    for blob in seen:
        for secret in secrets:
            assert secret not in blob


def test_card_data(harness: Harness) -> None:
    h = harness
    body = make_request(h.project, guarantees=['emails.only(["bob@example.com"])', "emails.nothing_like_this()"],
                        coverage=[
                            {"domain": "email", "status": "covered", "missing_required": [], "missing_recommended": []},
                            {"domain": "web", "status": "recommended_gap", "missing_required": [],
                             "missing_recommended": ["web.only_host"]},
                            {"domain": "fs", "status": "silent_gap", "missing_required": [], "missing_recommended": []},
                        ])
    card = h.submit(body).json()["presentation"]
    first, second = card["contracts"]
    assert first["call"] == 'email.only(addresses=["bob@example.com"])'
    assert first["library"] == {"domain": "email", "title": "Mock email", "mock": "mock"}
    assert first["identity"]["symbol"] == "tools.email.trusted.contracts.only"
    assert second["identity"] is None and second["call"] is None
    assert [c["status"] for c in card["coverage"]] == ["silent_gap", "recommended_gap", "covered"]
    assert card["coverage"][0]["label"] == "No guarantees: the program uses fs but states nothing about it"
    assert card["mock_notice"] is None  # issue 11 §6: web and fs are not declared mocks, so nothing is "simulated"
    page = h.client.get(f"/ui/requests/{RID}", headers=h.cookie()).text
    assert "Approve</button>" in page and "Feedback for the agent (optional)" in page
    assert "This contract must be approved each time" in page or "Profiles are off." in page


def test_html_is_escaped(harness: Harness) -> None:
    h = harness
    program = "# <script>window.__pwned=1</script>\n" + make_request(h.project)["program"]
    h.submit(make_request(h.project, program=program, source_name="<img src=x onerror=alert(1)>"))
    page = h.client.get(f"/ui/requests/{RID}", headers=h.cookie()).text
    assert "<script>window" not in page and "<img src=x" not in page and "&lt;script&gt;" in page
