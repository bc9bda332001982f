"""The read-only files endpoint (02 §8, 06 QB-14): no escape through links, FIFOs or races."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from clauz3.sessions.web.files import FilesError, browse, parse_query


@pytest.fixture
def root(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    (project / "docs").mkdir(parents=True)
    (project / "docs" / "a.txt").write_text("hello")
    (project / ".hidden").write_text("x")
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "secret.txt").write_text("secret")
    return project


def get(root: Path, path: str = "", hidden: str | None = None) -> dict:
    parts, show = parse_query(path, hidden)
    return browse(str(root), parts, show)


def status(root: Path, path: str, hidden: str | None = None) -> tuple[int, str]:
    with pytest.raises(FilesError) as info:
        get(root, path, hidden)
    return info.value.status, info.value.code


@pytest.mark.parametrize("path", ["../x", "/etc/passwd", "a//b", "a/./b", "a\x00b", "a\\b", "docs/"])
def test_bad_paths_are_400(root: Path, path: str) -> None:
    assert status(root, path)[0] == 400


def test_hidden_flag(root: Path) -> None:
    assert status(root, "", "yes") == (400, "bad_request")
    assert [e["name"] for e in get(root)["entries"]] == ["docs"]
    assert [e["name"] for e in get(root, "", "true")["entries"]] == ["docs", ".hidden"]


def test_listing_and_file(root: Path) -> None:
    assert get(root, "docs")["entries"] == [{"name": "a.txt", "kind": "file", "size": 5}]
    assert get(root, "docs/a.txt") == {"kind": "file", "path": "docs/a.txt", "size": 5, "content": "hello",
                                       "truncated": False}
    assert status(root, "docs/missing") == (404, "gone")


def test_links_are_refused(root: Path, tmp_path: Path) -> None:
    os.symlink(tmp_path / "outside" / "secret.txt", root / "link.txt")
    os.symlink(tmp_path / "outside", root / "linkdir")
    os.symlink("docs/a.txt", root / "internal.txt")
    for path in ("link.txt", "linkdir", "linkdir/secret.txt", "internal.txt"):
        assert status(root, path) == (403, "symlink"), path
    kinds = {e["name"]: e["kind"] for e in get(root)["entries"]}
    assert kinds["link.txt"] == "unavailable" and kinds["linkdir"] == "unavailable"


def test_fifo_is_listed_unavailable_and_never_blocks(root: Path) -> None:
    os.mkfifo(root / "pipe")
    assert {e["name"]: e["kind"] for e in get(root)["entries"]}["pipe"] == "unavailable"
    assert status(root, "pipe") == (415, "not_regular")


def test_non_utf8_name_and_limits(root: Path) -> None:
    os.mkdir(root / "many")
    (root / "many" / "x.txt").write_text("x")
    os.close(os.open(os.path.join(str(root / "many").encode(), b"caf\xe9"), os.O_CREAT | os.O_WRONLY, 0o600))
    entries = {e["name"]: e["kind"] for e in get(root, "many")["entries"]}
    assert entries["caf\ufffd"] == "unavailable"
    big = root / "big.txt"
    big.write_bytes(("é" * 150_000).encode())  # 300,000 bytes
    result = get(root, "big.txt")
    assert result["truncated"] and len(result["content"].encode()) <= 262_144
    assert set(result["content"]) == {"é"}
    (root / "latin.txt").write_bytes(b"caf\xe9")
    assert get(root, "latin.txt")["content"] is None


def test_many_entries_truncate(root: Path) -> None:
    folder = root / "lots"
    folder.mkdir()
    for i in range(2001):
        (folder / f"f{i:04d}").touch()
    result = get(root, "lots")
    assert len(result["entries"]) == 2000 and result["truncated"]


def test_dir_swapped_for_a_link_mid_walk_never_escapes(root: Path, tmp_path: Path) -> None:
    target = root / "swap"
    real = root / "swap-real"
    real.mkdir()
    (real / "f.txt").write_text("inside")
    stop = threading.Event()

    def flip() -> None:
        while not stop.is_set():
            try:
                os.rename(real, target)
                os.rename(target, real)
                os.symlink(tmp_path / "outside", target)
                os.unlink(target)
            except OSError:
                pass

    thread = threading.Thread(target=flip, daemon=True)
    thread.start()
    try:
        for _ in range(500):
            try:
                result = get(root, "swap/secret.txt")
            except FilesError as exc:
                assert exc.status in (403, 404)
                continue
            pytest.fail(f"escaped: {result}")
    finally:
        stop.set()
        thread.join()
