"""03 §9 at scale: with 10 000 rules and 100 000 history rows a remembered decision still matches through the
``rules_match`` index, and the authority starts no prover process (the timing half belongs to the benchmark)."""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import shutil
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from clauz3.approvals.app import ApprovalHTTP, build_app
from clauz3.approvals.authority import ApprovalAuthority, AuthorityConfig
from clauz3.approvals.cookies import SessionCookies
from clauz3.approvals.tokens import generate_token

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "email" / "tools"
PORT = 8766
PROGRAM = '''import clauz3
from tools.email.trusted import contracts as emails
from tools.email.trusted.effects import send_email


@clauz3.guarantee(emails.only(["bob@example.com"]))
@clauz3.guarantee(emails.at_most(1))
def main() -> None:
    send_email("bob@example.com", "Hi from clauz3")
'''
GUARANTEES = ['emails.only(["bob@example.com"])', "emails.at_most(1)"]


def request(project: Path, request_id: str, program: str) -> dict[str, Any]:
    return {
        "schema_version": 1, "kind": "clauz3.run", "request_id": request_id, "program": program,
        "program_sha256": hashlib.sha256(program.encode()).hexdigest(), "source_name": "<stdin>",
        "target": "main", "trusted_roots": [str(project / "tools" / "email" / "trusted")],
        "import_roots": [str(project)], "guarantees": GUARANTEES,
        "coverage": [{"domain": "email", "status": "covered", "missing_required": [], "missing_recommended": []}],
        "proofs": [{"name": g, "conclusion": "proved", "description": "ok"} for g in GUARANTEES],
        "execution_timeout_seconds": 60,
        "sandbox": {"mode": "unavailable", "detail": "tests", "extra_read": [], "extra_write": []},
        # What it can do (issue 19: a remembered approval covers only the effects its program called).
        "effects": {"complete": True, "effects": [{"effect": "send_email", "domain": "email", "mock": True,
                                                   "name": "tools.email.trusted.effects.send_email", "exact": True,
                                                   "calls": [{"line": 9, "always": True, "args": {}}]}]},
    }


class SpawnSpy:
    """Records (and refuses) every way this process could start another one."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls: list[str] = []

        def refuse(name: str) -> Any:
            def call(*args: Any, **kwargs: Any) -> Any:
                self.calls.append(name)
                raise AssertionError(f"the authority tried to start a process ({name})")
            return call

        monkeypatch.setattr(subprocess.Popen, "__init__", refuse("subprocess.Popen"))
        for name in ("fork", "forkpty", "posix_spawn", "posix_spawnp", "system", "execv", "execve"):
            if hasattr(os, name):
                monkeypatch.setattr(os, name, refuse(f"os.{name}"))
        monkeypatch.setattr(multiprocessing.Process, "start", refuse("multiprocessing.Process.start"))


def plant(db: Path, project: str, signature: str, *, rules: int, history: int) -> None:
    """Bulk rows beside the genuine rule: other signatures, other projects (same signature), disabled twins."""
    conn = sqlite3.connect(db)
    rows = []
    for i in range(rules):
        kind = i % 3
        if kind == 0:
            rows.append((f"rul_bulk{i:06d}", project, f"sig-{i:06d}", "allow", 1, None, 1.0 + i))
        elif kind == 1:  # another project's deny for this very signature must never match (03 §9)
            rows.append((f"rul_bulk{i:06d}", f"/elsewhere/{i}", signature, "deny", 1, None, 0.5))
        else:  # a disabled deny for this signature must not match either
            rows.append((f"rul_bulk{i:06d}", project, signature, "deny", 0, None, 0.5))
    conn.executemany("INSERT INTO rules (id, project, signature, effect, enabled, history_id, created)"
                     " VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
    record = json.dumps({"request_id": "req_bulk", "program": "x"})
    conn.executemany(
        "INSERT INTO history (id, project, created, signature, basis, record, decision, decided_by, rule_id)"
        " VALUES (?, ?, ?, ?, NULL, ?, 'approved_once', 'human', NULL)",
        ((f"hst_bulk{i:07d}", project if i % 2 else f"/elsewhere/{i}", 2.0 + i, f"sig-{i % 5000:06d}", record)
         for i in range(history)))
    conn.commit()
    assert conn.execute("SELECT count(*) FROM rules").fetchone()[0] >= 10_000
    assert conn.execute("SELECT count(*) FROM history").fetchone()[0] >= 100_000
    conn.close()


def test_remembered_rule_matches_by_index_among_10000_rules_without_a_prover(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = tmp_path / "data"
    monkeypatch.setenv("CLAUZ3_HOME", str(data))
    project = tmp_path / "project"
    shutil.copytree(EXAMPLE, project / "tools", ignore=shutil.ignore_patterns("__pycache__"))
    entailment_calls: list[Any] = []

    def entails(query: Any) -> bool:
        entailment_calls.append(query)
        raise AssertionError("a profile match must not prove anything")

    authority = ApprovalAuthority(AuthorityConfig(data_dir=data, project=str(project), profiles=True,
                                                  entails=entails))
    token = authority.register_conversation(None, [str(project / "tools" / "email" / "trusted")], [str(project)])
    approver = generate_token()
    http = ApprovalHTTP(authority, SessionCookies(data, str(project)), approver_token=approver, port=PORT)
    sub = {"Authorization": f"Bearer {token}"}
    appr = {"Authorization": f"Bearer {approver}"}
    with TestClient(build_app(http), base_url=f"http://127.0.0.1:{PORT}") as client:
        first = client.post("/api/requests", json=request(project, "req_00000001", PROGRAM), headers=sub).json()
        assert first["state"] == "pending" and first["profile"]["eligible"] is True
        decided = client.post("/api/requests/req_00000001/decision",
                              json={"decision": "approved_once", "remember": True}, headers=appr).json()
        assert decided["decision"] == "approved_remember"
        store = authority.profiles
        assert store is not None
        signature = authority.lookup(authority.submitter_for(token), "req_00000001").profile["signature"]
        [genuine] = store.snapshot(authority.project)["rules"]
        plant(store.path, authority.project, signature, rules=10_000, history=100_000)

        statements: list[str] = []
        store._conn.set_trace_callback(statements.append)
        spy = SpawnSpy(monkeypatch)
        other_body = PROGRAM.replace("Hi from clauz3", "Another body")
        again = client.post("/api/requests", json=request(project, "req_00000002", other_body), headers=sub).json()
        snapshot = client.get("/api/profile", headers=appr).json()
        monkeypatch.undo()
        store._conn.set_trace_callback(None)

        assert again["decision"] == "auto_approved" and again["decided_by"] == "profile", again
        assert again["rule"]["id"] == genuine["id"]  # not a bulk deny of another project or a disabled one
        assert spy.calls == [] and entailment_calls == []
        assert len(snapshot["history"]) <= 200 and len(snapshot["rules"]) <= 200

        reads = [s for s in statements if s.lstrip().upper().startswith("SELECT")
                 and (" rules " in f" {s} " or " history " in f" {s} ")]
        assert any("FROM rules WHERE project" in s and "signature" in s for s in reads), statements
        conn = sqlite3.connect(store.path)
        try:
            for sql in reads:
                plan = " | ".join(row[3] for row in conn.execute("EXPLAIN QUERY PLAN " + sql))
                assert "SCAN rules" not in plan and "SCAN history" not in plan, (sql, plan)
                if "FROM rules WHERE project" in sql and "signature" in sql:
                    assert "USING INDEX rules_match" in plan or "USING COVERING INDEX rules_match" in plan, plan
        finally:
            conn.close()
