"""The catalogue from files only (05 SRC-4…SRC-6, MAN-4): registry, stdlib, global and project copies."""

from __future__ import annotations

import socket
import sys
from pathlib import Path

import pytest
from libkit import make_source

from clauz3.layers import sources
from clauz3.layers.apply import apply_review
from clauz3.layers.catalogue import (
    FIELDS,
    UNAVAILABLE,
    build_catalogue,
    load_registry,
    query_catalogue,
    render_text,
)
from clauz3.layers.liberrors import LibraryError
from clauz3.layers.locations import Target
from clauz3.layers.review import prepare_install

SENTINEL = '''\
import clauz3
raise RuntimeError("catalogue imported library code")


@clauz3.trusted
def act(x: str) -> None:
    pass
'''


def test_bundled_registry_is_valid() -> None:
    sources_list = load_registry()
    assert "stdlib:filesystem" in sources_list
    with pytest.raises(LibraryError, match="only `sources:`"):
        load_registry("sources: [a]\nextra: 1\n")
    with pytest.raises(LibraryError, match="duplicate"):
        load_registry("sources: [a, a]\n")


def test_bundled_stdlib_manifests_validate() -> None:
    """MAN-4: every bundled manifest validates (whatever stdlib sources exist in this tree)."""
    from clauz3.layers.discovery import domains_in
    from clauz3.layers.manifest import load_manifest

    root = sources.stdlib_root()
    for name in sources.stdlib_names():
        for d in domains_in(root / name):
            path = root / name / "tools" / d.name / "clauz3.yaml"
            if path.exists():
                load_manifest(path, kind="domain", domain=d.name)


def test_offline_catalogue(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLAUZ3_HOME", str(tmp_path / "data"))
    monkeypatch.setattr("clauz3.layers.catalogue.load_registry",
                        lambda: ["stdlib:filesystem", "gh:acme/remote"])
    project = tmp_path / "project"
    project.mkdir()
    target = Target.for_project(project)
    apply_review(target, prepare_install(target, "stdlib:filesystem", cwd=project)["id"])
    make_source(project, {"mail": None, "sentinel": {"trusted/effects.py": SENTINEL}})

    def no_network(*_a: object, **_k: object) -> None:
        raise AssertionError("network used")

    monkeypatch.setattr(socket.socket, "connect", no_network)
    monkeypatch.setattr("subprocess.Popen", no_network)
    before = set(sys.modules)
    records = build_catalogue(project)
    assert not any(m.startswith("tools.") for m in set(sys.modules) - before)
    by_source = {r["source"]: r for r in records}
    assert all(set(r) == set(FIELDS) for r in records)
    assert by_source["gh:acme/remote"]["description"] == UNAVAILABLE
    assert by_source["gh:acme/remote"]["url"] == "https://github.com/acme/remote"
    assert by_source["stdlib:filesystem"]["visibility"] == "project"
    assert by_source["stdlib:filesystem"]["installed"] is True
    assert by_source["project:mail"]["install_command"] is None
    assert by_source["project:mail"]["mock"] == "mock"
    assert by_source["project:sentinel"]["mock"] == "unmarked"
    assert "  Undeclared" in render_text(by_source["project:sentinel"])
    ranked = query_catalogue(records, ["mail"])
    assert ranked[0]["source"] == "project:mail"
    assert query_catalogue(records, ["nothing-here"]) == []
