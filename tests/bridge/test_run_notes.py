"""Issue 18: where the program's Python means something else in clauz3, the ``run`` result says so.

A loop that appends to the list it iterates visits only the items there when the loop began; the
agent learns it from a ``note:`` line in the run tool's result (text and structuredContent), through
the real bridge, worker, prover and mock approval service.
"""

from __future__ import annotations

from pathlib import Path

from clauz3.approvals.mock import MockApprovalService

from .conftest import bridge_session, text_of
from .fakehost import FakeHost

APPENDING = '''from tools.email.trusted import contracts as emails
from tools.email.trusted.effects import send_email

import clauz3


@clauz3.guarantee(emails.at_most(1))
def main() -> None:
    names = ["bob"]
    for n in names:
        if n == "bob":
            names.append("carol")
    send_email("bob@example.com", str(len(names)))
'''
NOTE = ("note: program.py:10:5: python-differs: the loop visits the list `names` as it was when the loop began; "
        "items appended inside it are not visited")


async def test_run_result_carries_the_note_at_the_loop(project: Path, host: FakeHost,
                                                       svc: MockApprovalService) -> None:
    async with bridge_session(project, host) as session:
        result = await session.call_tool("run", {"source": APPENDING, "request_id": "req_notes_0001"})
        text = text_of(result)
        assert not result.is_error, text
        rec = result.structured_content
        assert rec["phase"] == "completed", text
        assert rec["notes"] == [NOTE], rec["notes"]
        lines = text.splitlines()
        assert lines[lines.index("--- notes ---") + 1] == NOTE, text


async def test_a_program_without_divergences_has_no_notes(project: Path, host: FakeHost,
                                                          svc: MockApprovalService) -> None:
    from .conftest import EMAIL_PROGRAM

    async with bridge_session(project, host) as session:
        result = await session.call_tool("run", {"source": EMAIL_PROGRAM, "request_id": "req_notes_0002"})
        assert result.structured_content["notes"] == []
        assert "--- notes ---" not in text_of(result)
