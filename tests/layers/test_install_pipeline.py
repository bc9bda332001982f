"""Install pipeline: review → apply, origin records, backups, rollback, refusals (05 §6)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from libkit import make_source, manifest, snapshot

from clauz3.commands._errors import library_exit
from clauz3.layers import apply as apply_mod
from clauz3.layers.apply import apply_review
from clauz3.layers.inventory import read_origin
from clauz3.layers.liberrors import LibraryError
from clauz3.layers.locations import GITIGNORE, Target
from clauz3.layers.locks import library_lock
from clauz3.layers.review import current_review, prepare_install, prepare_remove


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    data = tmp_path / "data"
    monkeypatch.setenv("CLAUZ3_HOME", str(data))
    monkeypatch.setenv("CLAUZ3_CACHE", str(tmp_path / "cache"))
    project = tmp_path / "project"
    project.mkdir()
    monkeypatch.chdir(project)
    return {"data": data, "project": project, "tmp": tmp_path}


def install(target: Target, source: str | Path, **kw: object) -> dict:
    record = prepare_install(target, str(source), **kw)  # type: ignore[arg-type]
    apply_review(target, record["id"])
    return record


def test_fresh_install_writes_origin_and_gitignore(env: dict[str, Path]) -> None:
    src = make_source(env["tmp"] / "src", {"mail": None})
    target = Target.for_project(env["project"], env["data"])
    record = prepare_install(target, str(src))
    assert record["action"] == "install" and record["domains"] == ["mail"]
    assert record["before"] == {"mail": "missing"}
    assert not (env["project"] / ".clauz3" / "tools").exists()  # INS-2: nothing under tools/ before apply
    assert record["changes"][0]["added"] == ["clauz3.yaml", "trusted/contracts.py", "trusted/effects.py"]
    assert record["mock_declarations"]["mail"]["kind"] == "mock"
    assert record["api"]["mail"]["effects"][0]["signature"] == "send(addr: str) -> None"
    result = apply_review(target, record["id"])
    assert result.backup is None
    installed = env["project"] / ".clauz3" / "tools" / "mail"
    origin = read_origin(installed)
    assert origin is not None and origin["source"] == str(src.resolve()) and origin["revision"] == ""
    from clauz3.language._layer_hash import domain_tree_hash
    assert origin["tree_sha256"] == domain_tree_hash(installed, exclude=(".clauz3-origin.json",))
    assert (env["project"] / ".clauz3" / ".gitignore").read_text() == GITIGNORE
    assert not any((env["project"] / ".clauz3" / "staging").iterdir())
    assert not (env["project"] / ".clauz3" / "library-backups").exists()
    # No approval material anywhere in the project.
    for _dirpath, _dirs, files in os.walk(env["project"]):
        for name in files:
            assert "approval" not in name


def test_reinstall_refused_then_force_replaces_whole_tree_with_backup(env: dict[str, Path]) -> None:
    src = make_source(env["tmp"] / "src", {"mail": None})
    (src / "tools" / "mail" / "trusted" / "stale.py").write_text("X = 1\n")
    target = Target.for_project(env["project"], env["data"])
    install(target, src)
    with pytest.raises(LibraryError, match="already installed from") as info:
        prepare_install(target, str(src))
    assert info.value.code == "refused" and library_exit(info.value) == 2
    (src / "tools" / "mail" / "trusted" / "stale.py").unlink()
    record = prepare_install(target, str(src), force=True)
    assert record["action"] == "update"
    assert record["changes"][0]["removed"] == ["trusted/stale.py"]
    result = apply_review(target, record["id"])
    assert not (target.tools / "mail" / "trusted" / "stale.py").exists()
    assert result.backup is not None and (result.backup / "tools" / "mail" / "trusted" / "stale.py").exists()
    info_json = json.loads((result.backup / "backup.json").read_text())
    assert info_json["review_id"] == record["id"] and info_json["domains"] == ["mail"]
    # The backup is a valid local source and restores the old tree.
    restore = prepare_install(target, str(result.backup), force=True)
    apply_review(target, restore["id"])
    assert (target.tools / "mail" / "trusted" / "stale.py").exists()


def test_twelve_updates_keep_ten_backups(env: dict[str, Path]) -> None:
    src = make_source(env["tmp"] / "src", {"mail": None})
    target = Target.for_project(env["project"], env["data"])
    install(target, src)
    for _ in range(12):
        install(target, src, force=True)
    assert len(list(target.backups.iterdir())) == 10


def test_project_file_edited_after_review(env: dict[str, Path]) -> None:
    src = make_source(env["tmp"] / "src", {"mail": None})
    target = Target.for_project(env["project"], env["data"])
    install(target, src)
    record = prepare_install(target, str(src), force=True)
    (target.tools / "mail" / "trusted" / "effects.py").write_text("# edited\n")
    before = snapshot(target.tools)
    with pytest.raises(LibraryError, match="changed after the review") as info:
        apply_review(target, record["id"])
    assert info.value.code == "changed_since_review"
    assert snapshot(target.tools) == before


def test_staged_file_edited_after_review(env: dict[str, Path]) -> None:
    src = make_source(env["tmp"] / "src", {"mail": None})
    target = Target.for_project(env["project"], env["data"])
    record = prepare_install(target, str(src))
    staged = target.staging / record["id"] / "tools" / "mail" / "trusted" / "effects.py"
    staged.write_text("import os\n")
    with pytest.raises(LibraryError, match="Staged files changed") as info:
        apply_review(target, record["id"])
    assert info.value.code == "changed_since_review"
    assert not (target.tools / "mail").exists()


def test_rename_failure_on_second_domain_rolls_back_both(env: dict[str, Path],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    src = make_source(env["tmp"] / "src", {"alpha": None, "beta": None})
    target = Target.for_project(env["project"], env["data"])
    install(target, src)
    (src / "tools" / "alpha" / "trusted" / "new.py").write_text("Y = 2\n")
    (src / "tools" / "beta" / "trusted" / "new.py").write_text("Y = 2\n")
    record = prepare_install(target, str(src), force=True)
    before = snapshot(target.tools)

    def fail(step: str, domain: str) -> None:
        if step == "install" and domain == "beta":
            raise OSError(28, "No space left on device")

    monkeypatch.setattr(apply_mod, "FAIL_HOOK", fail)
    with pytest.raises(LibraryError, match="No space left"):
        apply_review(target, record["id"])
    assert snapshot(target.tools) == before
    assert not target.backups.exists() or not any(target.backups.iterdir())
    assert not any(target.staging.iterdir())


def test_review_is_single_and_expires(env: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    a = make_source(env["tmp"] / "a", {"alpha": None})
    b = make_source(env["tmp"] / "b", {"beta": None})
    target = Target.for_project(env["project"], env["data"])
    first = prepare_install(target, str(a))
    second = prepare_install(target, str(b))
    with pytest.raises(LibraryError) as info:
        apply_review(target, first["id"])
    assert info.value.code == "review_expired"
    assert current_review(target)["id"] == second["id"]  # type: ignore[index]
    import time as time_mod
    real = time_mod.time
    monkeypatch.setattr(time_mod, "time", lambda: real() + 31 * 60)
    with pytest.raises(LibraryError) as info:
        apply_review(target, second["id"])
    assert info.value.code == "review_expired"


def test_symlinked_installed_tree_refused(env: dict[str, Path]) -> None:
    src = make_source(env["tmp"] / "src", {"mail": None})
    elsewhere = env["tmp"] / "elsewhere"
    elsewhere.mkdir()
    (env["project"] / ".clauz3").mkdir()
    (env["project"] / ".clauz3" / "tools").symlink_to(elsewhere)
    target = Target.for_project(env["project"], env["data"])
    with pytest.raises(LibraryError, match="symbolic link"):
        prepare_install(target, str(src))
    assert list(elsewhere.iterdir()) == []


def test_overlapping_domains_refused(env: dict[str, Path]) -> None:
    target = Target.for_project(env["project"], env["data"])
    install(target, make_source(env["tmp"] / "a", {"acme": None}))
    lims = make_source(env["tmp"] / "b", {"acme/lims": {"trusted/effects.py": "X = 1\n"}})
    with pytest.raises(LibraryError, match="overlap"):
        prepare_install(target, str(lims))


def test_domain_with_symlink_or_fifo_refused_without_staging(env: dict[str, Path]) -> None:
    target = Target.for_project(env["project"], env["data"])
    src = make_source(env["tmp"] / "src", {"mail": None})
    (src / "tools" / "mail" / "trusted" / "link.py").symlink_to("/etc/passwd")
    with pytest.raises(LibraryError, match="link or special file at") as info:
        prepare_install(target, str(src))
    assert info.value.code == "invalid_library"
    fifo_src = make_source(env["tmp"] / "src2", {"mail": None})
    os.mkfifo(fifo_src / "tools" / "mail" / "trusted" / "pipe")
    with pytest.raises(LibraryError, match="link or special file at"):
        prepare_install(target, str(fifo_src))
    assert not target.staging.exists() or not any(target.staging.iterdir())
    assert not target.tools.exists()


def test_dependencies_installed_first_and_kept_under_force(env: dict[str, Path]) -> None:
    target = Target.for_project(env["project"], env["data"])
    app = make_source(env["tmp"] / "app", {"app": {"clauz3.yaml": manifest("app", deps=["stdlib:filesystem"]),
                                                   "trusted/effects.py": "X = 1\n"}})
    record = install(target, app)
    assert record["domains"] == ["filesystem", "app"]
    assert read_origin(target.tools / "filesystem")["source"] == "stdlib:filesystem"  # type: ignore[index]
    (target.tools / "filesystem" / "trusted" / "local.py").write_text("Z = 3\n")
    again = install(target, app, force=True)
    assert again["domains"] == ["app"]
    assert (target.tools / "filesystem" / "trusted" / "local.py").exists()


def test_cycle_named(env: dict[str, Path]) -> None:
    a_root, b_root = env["tmp"] / "a", env["tmp"] / "b"
    make_source(a_root, {"a": {"clauz3.yaml": manifest("a", deps=[str(b_root)]), "trusted/x.py": ""}})
    make_source(b_root, {"b": {"clauz3.yaml": manifest("b", deps=[str(a_root)]), "trusted/x.py": ""}})
    target = Target.for_project(env["project"], env["data"])
    with pytest.raises(LibraryError, match="cyclic library dependency: a → b → a"):
        prepare_install(target, str(a_root))


def test_remove_depended_on_refused_then_remove_in_order(env: dict[str, Path]) -> None:
    target = Target.for_project(env["project"], env["data"])
    app = make_source(env["tmp"] / "app", {"app": {"clauz3.yaml": manifest("app", deps=["stdlib:filesystem"]),
                                                   "trusted/effects.py": "X = 1\n"}})
    install(target, app)
    with pytest.raises(LibraryError, match=r"app depends on filesystem; remove app first\."):
        prepare_remove(target, "filesystem")
    record = prepare_remove(target, "app")
    result = apply_review(target, record["id"])
    assert not (target.tools / "app").exists() and result.backup is not None
    assert (result.backup / "tools" / "app" / "trusted" / "effects.py").exists()
    with pytest.raises(LibraryError, match="not installed"):
        prepare_remove(target, "app")


def test_authored_domain_refused(env: dict[str, Path]) -> None:
    make_source(env["project"], {"mail": None})
    target = Target.for_project(env["project"], env["data"])
    with pytest.raises(LibraryError, match="authored"):
        prepare_install(target, str(make_source(env["tmp"] / "src", {"mail": None})))
    with pytest.raises(LibraryError, match="authored"):
        prepare_remove(target, "mail")


def test_lock_held_is_busy(env: dict[str, Path]) -> None:
    target = Target.for_project(env["project"], env["data"])
    src = make_source(env["tmp"] / "src", {"mail": None})
    record = prepare_install(target, str(src))
    with library_lock(target.lock_path):
        with pytest.raises(LibraryError) as info:
            apply_review(target, record["id"])
    assert info.value.code == "busy" and library_exit(info.value) == 5
    assert not target.tools.exists()


def test_in_use_and_busy_refused(env: dict[str, Path]) -> None:
    target = Target.for_project(env["project"], env["data"])
    record = prepare_install(target, str(make_source(env["tmp"] / "src", {"mail": None})))
    with pytest.raises(LibraryError) as info:
        apply_review(target, record["id"], active_domains=["mail"])
    assert info.value.code == "in_use"
    with pytest.raises(LibraryError) as info:
        apply_review(target, record["id"], busy=True)
    assert info.value.code == "busy"
    apply_review(target, record["id"])


def test_package_manifest_rules(env: dict[str, Path]) -> None:
    target = Target.for_project(env["project"], env["data"])
    pkg = "schema_version: 1\nkind: package\nname: bundle\ntitle: A bundle\n"
    src = make_source(env["tmp"] / "src", {"one": None, "two": {"trusted/x.py": ""}}, package=pkg)
    with pytest.raises(LibraryError, match=r"tools/two/clauz3\.yaml is missing"):
        prepare_install(target, str(src))
    setup_a = ("requirements:\n  setup:\n    - {id: key, kind: authentication, title: A, description: d, "
               "instructions: i}\n")
    setup_b = setup_a.replace("title: A", "title: B")
    src2 = make_source(env["tmp"] / "src2", {
        "one": {"clauz3.yaml": manifest("one", extra=setup_a), "trusted/x.py": ""},
        "two": {"clauz3.yaml": manifest("two", extra=setup_b), "trusted/x.py": ""}})
    with pytest.raises(LibraryError, match=r"conflicting requirements\.setup"):
        prepare_install(target, str(src2))
    assert not target.tools.exists()
    assert not target.staging.exists() or not any(target.staging.iterdir())


def test_invalid_manifest_names_field(env: dict[str, Path]) -> None:
    target = Target.for_project(env["project"], env["data"])
    src = make_source(env["tmp"] / "src", {"mail": {"clauz3.yaml": manifest("mail") + "kind: domain\n",
                                                    "trusted/x.py": ""}})
    with pytest.raises(LibraryError, match=r"invalid manifest .*kind: unknown field"):
        prepare_install(target, str(src))
    assert not target.tools.exists()


def test_global_store_and_independent_project_copy(env: dict[str, Path]) -> None:
    gtarget = Target.for_global(env["data"])
    install(gtarget, "stdlib:filesystem")
    assert (env["data"] / "global" / "tools" / "filesystem" / "trusted").is_dir()
    target = Target.for_project(env["project"], env["data"])
    install(target, "global:filesystem")
    assert read_origin(target.tools / "filesystem")["source"] == "global:filesystem"  # type: ignore[index]
    (gtarget.tools / "filesystem" / "trusted" / "effects.py").write_text("# changed globally\n")
    assert "changed globally" not in (target.tools / "filesystem" / "trusted" / "effects.py").read_text()
    with pytest.raises(LibraryError, match="--global"):
        prepare_install(gtarget, "global:filesystem")
