"""The browser routes' Python API (05 §6.6): catalogue-only sources, review → apply, select, discard."""

from __future__ import annotations

from pathlib import Path

import pytest
from libkit import make_source

from clauz3.layers import webapi
from clauz3.layers.liberrors import LibraryError


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CLAUZ3_HOME", str(tmp_path / "data"))
    monkeypatch.setattr("clauz3.layers.catalogue.load_registry", lambda: ["stdlib:filesystem"])
    proj = tmp_path / "project"
    proj.mkdir()
    return proj


def test_browser_flow(project: Path, tmp_path: Path) -> None:
    with pytest.raises(LibraryError) as info:
        webapi.prepare(project, "install", source=str(make_source(tmp_path / "x", {"x": None})))
    assert info.value.code == "unknown_source"
    with pytest.raises(LibraryError) as info:
        webapi.prepare(project, "frobnicate", source="stdlib:filesystem")
    assert info.value.code == "invalid_request"
    with pytest.raises(LibraryError) as info:
        webapi.prepare(project, "update", source="stdlib:filesystem")
    assert info.value.code == "refused"
    review = webapi.prepare(project, "install", source="stdlib:filesystem")
    assert webapi.libraries_snapshot(project)["review"]["id"] == review["id"]
    with pytest.raises(LibraryError) as info:
        webapi.apply(project, "0" * 32)
    assert info.value.code == "review_expired"
    with pytest.raises(LibraryError) as info:
        webapi.apply(project, review["id"], busy=True)
    assert info.value.code == "busy"
    assert webapi.apply(project, review["id"]) == {"action": "install", "domains": ["filesystem"], "backup": None}
    update = webapi.prepare(project, "update", domain="filesystem")
    with pytest.raises(LibraryError) as info:
        webapi.apply(project, update["id"], active_domains=["filesystem"])
    assert info.value.code == "in_use"
    assert webapi.apply(project, update["id"])["backup"]
    snap = webapi.libraries_snapshot(project, active=["filesystem"])
    assert snap["selected"] == ["filesystem"] and snap["review"] is None
    assert snap["mock_declarations"]["filesystem"]["kind"] == "real"  # the bundled library acts on real files
    inspected = webapi.inspect_source(project, "stdlib:filesystem")
    assert "trusted/effects.py" in inspected["source_code"]["filesystem"]
    assert webapi.select(project, ["filesystem"]) == {"selected": ["filesystem"]}
    webapi.prepare(project, "remove", domain="filesystem")
    assert webapi.discard(project) == {"ok": True}
    assert webapi.libraries_snapshot(project)["review"] is None
