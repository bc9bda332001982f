"""A conversation's saved state is read and written through one typed form (issue 15)."""

from __future__ import annotations

from clauz3.runs.records import Phase, RunRecord
from clauz3.sessions.conversation.runs import ConversationRun
from clauz3.sessions.conversation.saved_state import SavedState

# A run as the conversation saves it (the saved state holds typed runs, written back as their JSON).
RUN = ConversationRun(RunRecord("r1", phase=Phase.COMPLETED, exit_code=0, ended_at=1_700_000_002.5,
                                started_at=1_700_000_000.0, updated_at=1_700_000_002.5), turn=1).to_json()


def test_a_round_trip_keeps_every_field_and_unknown_keys() -> None:
    doc = {"mode": "restricted", "session_id": "s-1", "libraries": ["email"], "library_hashes": {"email": "h"},
           "library_fingerprint": "f", "approvals_paused": True, "host_notes": ["n"], "renamed": True,
           "runs": [RUN], "from_a_newer_version": {"x": 1}}
    saved = SavedState.from_json(doc)
    assert (saved.mode, saved.session_id, saved.libraries, saved.approvals_paused, saved.renamed) == (
        "restricted", "s-1", ["email"], True, True)
    assert saved.extra == {"from_a_newer_version": {"x": 1}}
    again = saved.to_json()
    assert {k: again[k] for k in doc} == doc
    assert SavedState.from_json(again) == saved


def test_malformed_fields_read_as_their_defaults() -> None:
    saved = SavedState.from_json({"libraries": "email", "approvals_paused": "yes", "session_id": "",
                                  "runs": [{"phase": "completed"}, "x"], "host_notes": [1, "kept"]})
    assert saved.libraries == [] and saved.approvals_paused is False and saved.session_id is None
    assert saved.runs == [] and saved.host_notes == ["kept"]


def test_an_empty_state_is_the_defaults() -> None:
    saved = SavedState.from_json({})
    assert saved == SavedState() and saved.to_json()["libraries_changed"] is False
