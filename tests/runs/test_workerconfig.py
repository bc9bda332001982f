"""Issue 23: the worker reads a typed configuration parsed once at its stdin edge, and a typed approval record."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from clauz3.runs.workerconfig import ApprovalRecord, ConfigError, WorkerConfig, WorkerSecrets, parse_config


def config(**over: Any) -> WorkerConfig:
    base: dict[str, Any] = dict(
        source="def main():\n    pass\n", source_name="<stdin>", request_id="req_1", target="main", project="/p",
        data_dir="/d", scratch="/s", trusted_roots=("/p/tools/x/trusted",), import_roots=("/p",), allow_imports=(),
        service_url="http://127.0.0.1:1", verify_key="k", workspace_generation=None, proof_deadline_at=1.5e9,
        obligation_timeout_seconds=10.0, execution_timeout_seconds=60, approval_timeout_seconds=None,
        step_budget=1_000_000, require_sandbox=False, use_cache=True, extra_read=(), extra_write=("/w",),
        progress_fd=5, gate_fd=6, lifetime_fd=7, secrets=WorkerSecrets("token-1", {"SMTP_PASSWORD": "pw"}))
    base.update(over)
    return WorkerConfig(**base)


def test_the_stdin_document_reads_back_as_the_same_configuration() -> None:
    sent = config(approval_timeout_seconds=30, workspace_generation="g1", allow_imports=("json",))
    got = parse_config(json.loads(json.dumps(sent.to_json())))
    assert got == sent  # every field but the secrets (which compare by what they hand out)
    assert got.secrets.take_submission_token() == "token-1"
    assert got.secrets.take_environment() == {"SMTP_PASSWORD": "pw"}


def test_each_secret_is_handed_out_once_and_never_shown() -> None:
    got = parse_config(config().to_json())
    assert "token-1" not in repr(got) and "pw" not in repr(got)
    got.secrets.take_submission_token()
    with pytest.raises(ConfigError):
        got.secrets.take_submission_token()
    assert got.secrets.take_environment() == {"SMTP_PASSWORD": "pw"} and got.secrets.take_environment() == {}


@pytest.mark.parametrize("change", [{"source": None}, {"trusted_roots": "/one"}, {"gate_fd": "6"},
                                    {"proof_deadline_at": True}, {"environment_secrets": {"A": 1}},
                                    {"submission_token": None}, {"approval_timeout_seconds": "30"}])
def test_a_document_of_another_shape_is_refused(change: dict[str, Any]) -> None:
    with pytest.raises(ConfigError):
        parse_config({**config().to_json(), **change})


def test_the_worker_exits_2_on_a_configuration_of_another_shape() -> None:
    doc = {**config().to_json(), "trusted_roots": "/one"}
    out = subprocess.run([sys.executable, "-P", "-m", "clauz3.runs.worker"], input=json.dumps(doc),
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "invalid worker configuration" in out.stderr, out.stderr


def test_an_approval_record_field_of_another_type_reads_as_absent() -> None:
    record = ApprovalRecord.from_json({"state": "approved", "decision": 5, "rule": {"id": "r1"},
                                       "receipt": ["x"], "feedback": "ok", "expires_at": "2026-12-02T10:00:00Z"})
    assert record.state == "approved" and record.decision is None and record.receipt is None
    assert record.note() == {"state": "approved", "decision": None, "decided_by": None, "rule": {"id": "r1"},
                             "feedback": "ok"}
