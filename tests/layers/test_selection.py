"""Selection defaults, fingerprints and change classification (05 §8)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from libkit import make_source, manifest

from clauz3.layers.apply import apply_review
from clauz3.layers.liberrors import LibraryError
from clauz3.layers.locations import Target
from clauz3.layers.review import prepare_install, prepare_remove
from clauz3.layers.selection import (
    SelectionChange,
    change_note,
    classify_change,
    defaults_for_new_conversation,
    defaults_path,
    fingerprint_changed,
    library_hashes,
    read_defaults,
    save_defaults,
    selection_fingerprint,
    terminal_libraries_line,
)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CLAUZ3_HOME", str(tmp_path / "data"))
    proj = tmp_path / "project"
    proj.mkdir()
    target = Target.for_project(proj)
    app = make_source(tmp_path / "app", {"app": {"clauz3.yaml": manifest("app", deps=["stdlib:filesystem"]),
                                                 "trusted/effects.py": "X = 1\n"}})
    apply_review(target, prepare_install(target, str(app), cwd=proj)["id"])
    make_source(proj, {"mail": None})  # authored
    return proj


def test_default_is_every_present_domain(project: Path) -> None:
    assert defaults_for_new_conversation(project) == (["app", "filesystem", "mail"], None)
    assert read_defaults(project) is None


def test_select_saves_dependency_closure(project: Path) -> None:
    assert save_defaults(project, ["app"]) == ["app", "filesystem"]
    record = json.loads(defaults_path(project).read_text())
    assert record == {"schema_version": 1, "domains": ["app", "filesystem"]}
    with pytest.raises(LibraryError, match="nope is not installed") as info:
        save_defaults(project, ["nope"])
    assert info.value.code == "invalid_request"


def test_deleted_default_dropped_with_notice(project: Path) -> None:
    save_defaults(project, ["mail", "app"])
    target = Target.for_project(project)
    apply_review(target, prepare_remove(target, "app")["id"])
    # INS-12: remove drops it from the saved defaults already.
    assert read_defaults(project) == ["filesystem", "mail"]
    save_defaults(project, ["mail"])
    import shutil
    shutil.rmtree(project / "tools" / "mail")
    domains, notice = defaults_for_new_conversation(project)
    assert domains == []
    assert notice == ("Starting without mail: it is no longer installed in this project. Install it again from "
                      "Libraries to use it.")
    assert read_defaults(project) == []
    assert defaults_for_new_conversation(project) == ([], None)
    assert terminal_libraries_line([]) == "Libraries: none"
    assert terminal_libraries_line(["a", "b"]) == "Libraries: a, b"


def test_newer_schema_refused_and_kept(project: Path) -> None:
    path = defaults_path(project)
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"schema_version": 2, "domains": []}))
    with pytest.raises(LibraryError, match="newer clauz3"):
        defaults_for_new_conversation(project)
    with pytest.raises(LibraryError, match="newer clauz3"):
        save_defaults(project, ["mail"])
    assert json.loads(path.read_text())["schema_version"] == 2


def test_fingerprint_tracks_file_edits(project: Path) -> None:
    fp = selection_fingerprint(project, ["mail", "filesystem"])
    hashes = library_hashes(project, ["mail"])
    assert not fingerprint_changed(project, ["mail", "filesystem"], fp)
    (project / "tools" / "mail" / "trusted" / "effects.py").write_text("# edited\n")
    assert fingerprint_changed(project, ["mail", "filesystem"], fp)
    assert library_hashes(project, ["mail"]) != hashes
    (project / "tools" / "mail" / "trusted" / "evil.py").symlink_to("/etc/hostname")
    with pytest.raises(LibraryError):
        selection_fingerprint(project, ["mail"])


def test_classification(project: Path) -> None:
    current = ["filesystem"]
    saved = library_hashes(project, current)
    assert classify_change(project, current, saved, ["filesystem"], started=True).kind == "noop"
    before = classify_change(project, current, saved, ["app"], started=False)
    assert (before.kind, before.domains, before.added) == ("apply", ["app", "filesystem"], ["app"])
    both = ["filesystem", "mail"]
    narrow = classify_change(project, both, library_hashes(project, both), ["filesystem"], started=True)
    assert (narrow.kind, narrow.removed, narrow.pauses) == ("narrow", ["mail"], False)
    widen = classify_change(project, current, saved, ["filesystem", "mail", "ghost"], started=True)
    assert widen.kind == "widen" and widen.needs_confirm and widen.pauses
    assert widen.confirm_params() == {"domains": ["filesystem", "mail"], "added": ["mail"], "removed": [],
                                      "updated": []}
    assert widen.marker(paused=True, turn=3) == {"added": ["mail"], "removed": [], "updated": False,
                                                 "paused": True, "turn": 3}
    (project / ".clauz3" / "tools" / "filesystem" / "trusted" / "effects.py").write_text("# new\n")
    updated = classify_change(project, current, saved, ["filesystem"], started=True)
    assert (updated.kind, updated.updated) == ("widen", ["filesystem"])


def test_change_note_merges_pending() -> None:
    note = change_note([SelectionChange("widen", [], ["a"], [], []), SelectionChange("narrow", [], [], ["b"], []),
                        SelectionChange("widen", [], [], [], ["c"])])
    assert note == ("[clauz3] Library change since your last message — added a; removed b; files updated in c. "
                    "Your earlier tools listing is stale: call tools again before you write another program.")
    assert change_note([SelectionChange("apply", [], ["a"], [], []),
                        SelectionChange("narrow", [], [], ["a"], [])]) is None


def test_terminal_chooser(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from clauz3.layers.chooser import NO_TTY, run_chooser

    monkeypatch.setenv("CLAUZ3_HOME", str(tmp_path / "data"))
    monkeypatch.setattr("clauz3.layers.catalogue.load_registry", lambda: [])
    proj = tmp_path / "p"
    proj.mkdir()
    with pytest.raises(LibraryError, match=NO_TTY):
        run_chooser(proj, stdin=io.StringIO(""), out=io.StringIO(), is_tty=False)
    assert run_chooser(proj, stdin=io.StringIO(""), out=io.StringIO(), is_tty=True) == "cancel"
    assert run_chooser(proj, stdin=io.StringIO("q\n"), out=io.StringIO(), is_tty=True) == "cancel"
    assert not (proj / ".clauz3").exists()
    out = io.StringIO()
    assert run_chooser(proj, stdin=io.StringIO("\n"), out=out, is_tty=True) == "installed"
    assert "1) File work: filesystem (recommended)" in out.getvalue()
    assert (proj / ".clauz3" / "tools" / "filesystem" / "trusted").is_dir()
    out = io.StringIO()
    assert run_chooser(proj, stdin=io.StringIO("2\n1\n"), out=out, is_tty=True) == "installed"
    assert "1) stdlib:db" in out.getvalue()  # the bundled stdlib's first entry, by name
    assert (proj / ".clauz3" / "tools" / "db" / "trusted").is_dir()
