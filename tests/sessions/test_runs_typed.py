"""A conversation keeps its runs as typed RunRecords from edge to edge (issue 15, "Typed state").

The bridge's record is parsed once (lifetime connection or saved state) and becomes JSON again only
where JSON is written: the page's state frame, the saved state and the exports. These tests pin that
the JSON at those edges is exactly what the host built before runs were typed:
``{"turn": …, "undo": …, **record.to_json()}`` with ``elapsed_seconds`` measured when the record arrived.
"""

from __future__ import annotations

import io
import json
import logging
from pathlib import Path
from typing import Any

import pytest
from sessions_harness import signed_in

from clauz3.runs.records import FINAL_PHASES, MAX_SUMMARY_BYTES, Phase, RunRecord
from clauz3.sessions.conversation.export import as_markdown
from clauz3.sessions.conversation.runs import ConversationRun, RunUndo
from clauz3.sessions.conversation.saved_state import SavedState
from clauz3.sessions.terminal.terminal_output import Renderer
from clauz3.sessions.web.state_frame import activity

T0 = 1_700_000_000.0


def full_record(request_id: str, phase: Phase) -> RunRecord:
    """A record with every optional part filled in, as a bridge sends it (through its JSON)."""
    final = phase in FINAL_PHASES
    record = RunRecord(
        request_id, conversation_id="c-1", attempt=2, phase=phase, reason="denied" if phase == Phase.REFUSED else None,
        message="The person rejected it." if phase == Phase.REFUSED else None,
        exit_code=0 if phase == Phase.COMPLETED else None, recorded=final, source_sha256="ab" * 32,
        source_name="send.py", started_at=T0, updated_at=T0 + 1.25, ended_at=T0 + 2.5 if final else None,
        approval={"state": "approved", "decision": "approved_once", "decided_by": "person",
                  "rule": {"scope": "this_conversation"}, "feedback": "fine"},
        sandbox="bubblewrap" if phase == Phase.EXECUTING else None,
        obligation={"index": 0, "description": "At most one email", "line": 3, "column": 1, "call": "send()",
                    "effect": "emails", "predicate": "n <= 1", "conclusion": "proved", "result": "holds",
                    "source_kind": "library", "module": "email"},
        effects_count=1, executed_partially=phase == Phase.UNCERTAIN,
        summary={"kind": "done", "line": 3, "sentences": ["It sent one email."], "warnings": [],
                 "blocks": [{"label": "To", "value": "a@example.org"}], "excerpt": ["send(to)"]},
    )
    return RunRecord.from_json(json.loads(json.dumps(record.to_json())))  # what the lifetime edge hands over


def before_typing(conv_turn: int, record: RunRecord, undo: dict[str, bool]) -> dict[str, Any]:
    """What ``ConversationRuntime.on_run_record`` stored (and the page got) while runs were dicts."""
    return {**{"turn": conv_turn, "undo": {"available": False, "undone": False}}, **record.to_json(), "undo": undo}


def without_elapsed(doc: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in doc.items() if k != "elapsed_seconds"}


async def test_every_phase_renders_the_page_json_it_did_before(tmp_path: Path) -> None:
    async with signed_in(tmp_path, bridge=None) as svc:
        conv = svc.host.conversation
        records = {phase: full_record(f"run_{phase.value}", phase) for phase in Phase}
        for record in records.values():
            conv.on_run_record(record)
        assert all(isinstance(run, ConversationRun) for run in conv.runs.values())  # no dict in the middle
        state = svc.host.state()
        json.dumps(state)  # the frame is JSON as it stands
        page_runs = {r["request_id"]: r for r in state["runs"]}
        assert list(page_runs) == [f"run_{p.value}" for p in Phase]
        no_journal = {"available": False, "undone": False}
        for phase, record in records.items():
            shown = page_runs[record.request_id]
            expected = before_typing(conv.turn, record, no_journal)
            assert set(shown) == set(expected), phase
            if phase.final:  # an ended run's elapsed time is fixed by its own times
                assert shown == expected, phase
                assert shown["elapsed_seconds"] == 2.5
            else:  # a running one's is measured when the record arrived, and stays so on every frame
                assert without_elapsed(shown) == without_elapsed(expected), phase
                assert shown["elapsed_seconds"] > 0
            assert shown["phase"] == phase.value and shown["run_id"] == record.request_id
        again = {r["request_id"]: r for r in svc.host.state()["runs"]}
        assert again == page_runs
        # The progress indicator names the newest active run.
        newest_active = [p for p in Phase if not p.final][-1]
        assert activity(conv) == {"kind": "run", "phase": newest_active, "request_id": f"run_{newest_active.value}"}


async def test_saved_state_round_trip_gives_the_same_page_runs(tmp_path: Path) -> None:
    async with signed_in(tmp_path, bridge=None) as svc:
        conv = svc.host.conversation
        for phase in Phase:
            conv.on_run_record(full_record(f"run_{phase.value}", phase))
        # A summary cut to fit its 8 KiB keeps saying so after being read back (it used to lose ``omitted``).
        long = RunRecord("run_long", phase=Phase.COMPLETED, started_at=T0, updated_at=T0, ended_at=T0 + 1,
                         summary={"kind": "done", "sentences": ["x" * 1000] * 20})
        conv.on_run_record(RunRecord.from_json(long.to_json()))
        page = svc.host.state()["runs"]
        assert page[-1]["summary"]["omitted"].endswith("left out (too long for the run record).")
        assert len(json.dumps(page[-1]["summary"]).encode()) <= MAX_SUMMARY_BYTES
        stored = svc.host.store.get(conv.id)
        assert stored is not None
        reread = SavedState.from_json(json.loads(json.dumps(stored.state)))
        assert all(isinstance(run, ConversationRun) for run in reread.runs)
        assert [run.to_json() for run in reread.runs] == page  # elapsed times included


def test_undo_and_a_stop_change_the_json_they_render() -> None:
    run = ConversationRun(full_record("run_x", Phase.EXECUTING), turn=3)
    first = run.to_json()
    assert first["undo"] == {"available": False, "undone": False} and first["phase"] == "executing"
    run.stop()
    stopped = run.to_json()
    assert (stopped["phase"], stopped["reason"], stopped["turn"]) == ("cancelled", "stopped", 3)
    assert stopped["elapsed_seconds"] == first["elapsed_seconds"]  # still measured when it arrived
    run.set_undo(RunUndo(available=True))
    assert run.to_json()["undo"] == {"available": True, "undone": False}
    stopped["phase"] = "tampered"
    assert run.to_json()["phase"] == "cancelled"  # a caller's copy never changes the run


def test_a_saved_run_this_version_cannot_read_is_left_out(caplog: pytest.LogCaptureFixture) -> None:
    good = ConversationRun(full_record("run_ok", Phase.COMPLETED), turn=1).to_json()
    with caplog.at_level(logging.WARNING):
        saved = SavedState.from_json({"runs": [{"request_id": "run_new", "phase": "teleporting"}, good,
                                               {"request_id": 7, "phase": "completed"}]})
    assert [run.request_id for run in saved.runs] == ["run_ok"]
    assert "cannot read" in caplog.text


def test_exports_and_terminal_read_the_typed_runs() -> None:
    runs = [ConversationRun(full_record(f"run_{p.value}", p), turn=1) for p in (Phase.PROVING, Phase.REFUSED)]
    state = SavedState(runs=runs).to_json()
    text = as_markdown(title="t", project="/p", agent="demo", model=None, state=state, history=[])
    # Issue 22: each run is a card in words (its outcome), placed with its turn or, with no turn in
    # the history, under Runs.
    assert text.count("### Run ") == 2 and "## Runs" in text
    assert "Outcome: Under way (proving)" in text
    assert "Outcome: Did not run" in text
    err = io.StringIO()
    renderer = Renderer(io.StringIO(), err, lambda: "link")
    renderer.runs(runs)
    renderer.runs(runs)  # unchanged phases are not announced again
    assert err.getvalue().count("[run run_prov") == 1 and "refused (denied)" not in err.getvalue()
    renderer.seen_runs([ConversationRun(full_record("run_old", Phase.COMPLETED))])
    renderer.runs([ConversationRun(full_record("run_old", Phase.COMPLETED))])
    assert "run_old" not in err.getvalue()
