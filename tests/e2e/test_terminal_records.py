"""Terminal conversation records without a service (05 TRM-2, TRM-6, TRM-8, TRM-9): real store, real files."""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path

import pytest
from terminal_helpers import make_project

from clauz3.sessions.store.store import ConversationStore
from clauz3.sessions.terminal.terminal_records import (
    RecordError,
    accept_changes,
    compare,
    create_terminal_conversation,
    find_conversation,
    load_record,
    validate,
)


@pytest.fixture
def setup(tmp_path: Path) -> tuple[Path, Path, Path, Path]:
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    project = make_project(tmp_path)
    skills = tmp_path / "skills" / "notes"
    skills.mkdir(parents=True)
    (skills / "SKILL.md").write_text("Use short sentences.\n")
    policy = tmp_path / "policy.json"
    policy.write_text(json.dumps({"version": 1, "rules": []}))
    return data, project, skills.parent, policy


def test_start_record_holds_the_three_fingerprints(setup: tuple[Path, Path, Path, Path]) -> None:
    data, project, skills, policy = setup
    row, dropped = create_terminal_conversation(data, str(project), agent="demo", mode="restricted",
                                                policy=str(policy), skills_dirs=[str(skills)], requested_model=None)
    assert dropped is None and row.frontend == "terminal"
    selection = row.state["selection"]
    assert selection["libraries"] == row.state["library_fingerprint"] and len(selection["policy"]) == 64
    assert selection["policy_path"] == str(policy) and selection["skills_dirs"] == [str(skills)]
    record = load_record(data, row.id, str(project))
    assert not compare(record, data).any


def test_skill_edit_refuses_then_accepts_without_pausing(setup: tuple[Path, Path, Path, Path]) -> None:
    data, project, skills, _policy = setup
    row, _ = create_terminal_conversation(data, str(project), agent="demo", mode="restricted", policy=None,
                                          skills_dirs=[str(skills)], requested_model=None)
    (skills / "notes" / "SKILL.md").write_text("Use long sentences.\n")
    record = load_record(data, row.id, str(project))
    changes = compare(record, data)
    assert changes.skills and not changes.policy and not changes.libraries_changed
    assert changes.message(row.id) == (
        f"cannot resume {row.id}: skill documents changed since it last ran (skill documents edited); review it in "
        "clauz3 ui, start a new conversation, or pass --accept-changes")
    state = accept_changes(record, changes, data)
    assert state["approvals_paused"] is False and state["library_changes"] == []
    assert not compare(replace(record, selection=state["selection"]), data).any


def test_policy_and_library_changes_pause_and_note(setup: tuple[Path, Path, Path, Path]) -> None:
    data, project, _skills, policy = setup
    row, _ = create_terminal_conversation(data, str(project), agent="demo", mode="restricted", policy=str(policy),
                                          skills_dirs=[], requested_model=None)
    policy.unlink()
    effects = project / "tools" / "email" / "trusted" / "effects.py"
    effects.write_text(effects.read_text() + "\n# edited\n")
    record = load_record(data, row.id, str(project))
    changes = compare(record, data)
    assert changes.policy and changes.updated == ["email"]
    assert "libraries and policy changed since it last ran (updated email; policy file removed)" in changes.message(row.id)
    state = accept_changes(record, changes, data)
    assert state["approvals_paused"] is True
    assert state["library_changes"][-1]["updated"] == ["email"]
    assert state["selection"]["policy"] == "none" and state["selection"]["policy_path"] is None


def test_invalid_records_are_refused(setup: tuple[Path, Path, Path, Path], tmp_path: Path) -> None:
    data, project, _skills, _policy = setup
    row, _ = create_terminal_conversation(data, str(project), agent="demo", mode="restricted", policy=None,
                                          skills_dirs=[], requested_model=None)
    with pytest.raises(RecordError, match="unknown agent"):
        validate(replace(row, agent="gpt"))
    with pytest.raises(RecordError, match="policy path is not an absolute path"):
        validate(replace(row, state={**row.state, "selection": {"policy_path": "policy.json"}}))
    with pytest.raises(RecordError, match="unknown mode"):
        validate(replace(row, state={**row.state, "mode": "yolo"}))
    moved = tmp_path / "moved"
    os.rename(project, moved)
    with pytest.raises(RecordError, match=f"is missing: {project}$"):
        validate(row)
    os.rename(moved, project)
    # Another project's conversation is still found by id (resume from anywhere, TRM-5).
    store = ConversationStore.open(data, str(project))
    store.append(row.id, turn=1, method="clauz3/user", frame={"method": "clauz3/user", "params": {"text": "x"}})
    store.close()
    assert find_conversation(data, "/elsewhere", row.id) == (row.id, str(project))
    assert find_conversation(data, str(project), None) == (row.id, str(project))
