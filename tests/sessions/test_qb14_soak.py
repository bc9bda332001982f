"""QB-14 soak (00 DEC-2): 10,000 tries of a link swapped in during a files request, 0 escapes.

The default tier's 500 tries live in ``test_files_panel.py`` (the walk in-process, a racing thread).
Here a separate racing *process* swaps atomically (``renameat2(RENAME_EXCHANGE)``), in a tight loop,
(a) a directory with a link to a directory outside the workspace and (b) a regular file with a link to
a file outside, so the requested name always exists as one or the other. Both outside targets hold the marker ``SECRET``; an answer carrying it, or listing the
outside directory's entries, is an escape. Each test also asserts that the race was real: the
inside answer and the link refusal both occurred.
"""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sessions_harness import signed_in

from clauz3.sessions.web.files import FilesError, browse, parse_query

TRIES = 10_000
SECRET = "SECRET-outside-the-workspace"

RACER = r'''
import ctypes, os, sys, threading
root = sys.argv[1]
libc = ctypes.CDLL(None, use_errno=True)
AT_FDCWD, RENAME_EXCHANGE = -100, 2
pairs = [(f"{root}/swap".encode(), f"{root}/.swap-other".encode()),
         (f"{root}/flip.txt".encode(), f"{root}/.flip-other".encode())]
stop = threading.Event()
threading.Thread(target=lambda: (sys.stdin.read(), stop.set()), daemon=True).start()
print("racing", flush=True)
while not stop.is_set():
    for a, b in pairs:  # atomic swap: the name always exists, as the real entry or as the link
        if libc.renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE) != 0:
            raise SystemExit(f"renameat2: errno {ctypes.get_errno()}")
'''


def layout(root: Path, outside: Path) -> None:
    (root / "swap").mkdir(parents=True)
    (root / "swap" / "f.txt").write_text("inside")
    (root / "flip.txt").write_text("inside")
    outside.mkdir()
    (outside / "f.txt").write_text(SECRET)
    (outside / "only-outside.txt").write_text(SECRET)
    (root / ".swap-other").symlink_to(outside)
    (root / ".flip-other").symlink_to(outside / "f.txt")


def racing(root: Path, outside: Path) -> Iterator[subprocess.Popen[str]]:
    proc = subprocess.Popen([sys.executable, "-c", RACER, str(root)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline() == "racing\n"
        yield proc
    finally:
        assert proc.stdin is not None
        proc.stdin.close()
        try:
            assert proc.wait(90) == 0  # the racer kept swapping until told to stop
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            raise


PATHS = ["swap/f.txt", "flip.txt", "swap"]


def classify(path: str, status: int, body: dict[str, Any]) -> str:
    """``inside``, ``refused:<status>`` or ``ESCAPE``."""
    if status != 200:
        return f"refused:{status}"
    text = repr(body)
    if SECRET in text or "only-outside.txt" in text:
        return "ESCAPE"
    if path == "swap":
        return "inside" if [e["name"] for e in body["entries"]] == ["f.txt"] else "ESCAPE"
    return "inside" if body.get("content") == "inside" else "ESCAPE"


def assert_raced_without_escape(seen: Counter[str]) -> None:
    assert seen["ESCAPE"] == 0, seen
    assert sum(seen.values()) == TRIES
    assert seen["inside"] > 0 and seen["refused:403"] > 0, seen  # both sides of the race were hit


@pytest.mark.soak
def test_browse_never_escapes_a_racing_link(tmp_path: Path) -> None:
    root, outside = tmp_path / "project", tmp_path / "outside"
    layout(root, outside)
    seen: Counter[str] = Counter()
    for _ in racing(root, outside):
        for i in range(TRIES):
            path = PATHS[i % len(PATHS)]
            try:
                body = browse(str(root), *parse_query(path, None))
            except FilesError as exc:
                assert exc.status in (403, 404, 415), (path, exc.status, exc.code)
                seen[f"refused:{exc.status}"] += 1
                continue
            seen[classify(path, 200, body)] += 1
    assert_raced_without_escape(seen)


@pytest.mark.soak
async def test_files_endpoint_never_escapes_a_racing_link(tmp_path: Path) -> None:
    # One connection per request: on a kept-alive connection each answer waits ~40 ms for a delayed ACK.
    async with signed_in(tmp_path, bridge=None) as svc, \
            svc.client(cookies=svc.cookies(), headers={"Connection": "close"}) as client:
        root = Path(svc.host.project)
        outside = tmp_path / "outside"
        layout(root, outside)
        seen: Counter[str] = Counter()
        for _ in racing(root, outside):
            for i in range(TRIES):
                path = PATHS[i % len(PATHS)]
                response = await client.get("/api/workspace/files", params={"path": path})
                assert response.status_code in (200, 403, 404, 415), (path, response.status_code, response.text)
                seen[classify(path, response.status_code, response.json())] += 1
    assert_raced_without_escape(seen)
