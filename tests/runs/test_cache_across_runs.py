"""Issue 13: the worker's proof cache hits for an identical program re-submitted by another cold worker.

Each cold ``clauz3 run`` worker proves against a private copy of the layer in a fresh directory
(runs/pinning.py), so a key naming the copy's roots missed every time. Here two real ``clauz3 run``
processes submit the same program to a real ``clauz3 approval-service`` that proves every request
itself and refuses claims that differ from its own proof (claims_mismatch): the second run must be
served from the worker's cache and still be accepted, approved and executed. A hit is observed by
content, not timing: a miss always stores its solver result as a new entry file (atomic rename, a
new inode), a hit stores nothing, so the entry file of the first run is the very file left after
the second. One edited library byte then misses and stores a second entry.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

REPO = Path(__file__).resolve().parents[2]
TOKEN = "cache-across-runs-submitter-token-0123456789"
APPROVER = "cache-across-runs-approver-token-0123456789ab"
PROGRAM = (REPO / "examples" / "email" / "main.py").read_text()


@pytest.fixture
def project(tmp_path: Path) -> Path:
    proj = Path(os.path.realpath(tmp_path)) / "proj"
    shutil.copytree(REPO / "examples" / "email" / "tools", proj / "tools", ignore=shutil.ignore_patterns("__pycache__"))
    (proj / "prog.py").write_text(PROGRAM, encoding="utf-8")
    return proj


def _env(project: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAUZ3_")}
    home = project.parent / "data"
    home.mkdir(mode=0o700, exist_ok=True)
    env.update(CLAUZ3_HOME=str(home), CLAUZ3_CACHE=str(project.parent / "cache"), CLAUZ3_PROOF_CACHE="1", **extra)
    return env


@pytest.fixture
def service(project: Path) -> Iterator[dict[str, str]]:
    args = [sys.executable, "-m", "clauz3", "approval-service", "--port", "0", "--project", str(project),
            "--trusted-root", str(project / "tools" / "email" / "trusted"), "--import-root", str(project)]
    env = _env(project, CLAUZ3_APPROVAL_TOKEN=TOKEN, CLAUZ3_APPROVAL_DECISION_TOKEN=APPROVER)
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert proc.stdout is not None
        banner: dict[str, str] = {}
        while "CLAUZ3_APPROVAL_VERIFY_KEY" not in banner:
            line = proc.stdout.readline()
            assert line, proc.stderr.read() if proc.stderr else ""
            if line.startswith("CLAUZ3_") and "=" in line:
                key, value = line.strip().split("=", 1)
                banner[key] = value
        yield banner
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def _entries(project: Path) -> dict[Path, int]:
    """The worker cache's entry files and their inodes (the authority keeps its own directory)."""
    root = project.parent / "cache" / "proofs"
    return {f: f.stat().st_ino for f in root.glob("*/*.json")} if root.is_dir() else {}


def _run_and_approve(project: Path, banner: dict[str, str], rid: str) -> str:
    """One cold ``clauz3 run`` of prog.py, approved once its card is pending; returns its stdout."""
    url = banner["CLAUZ3_APPROVAL_SERVICE"]
    env = _env(project, CLAUZ3_APPROVAL_SERVICE=url, CLAUZ3_APPROVAL_TOKEN=TOKEN,
               CLAUZ3_APPROVAL_VERIFY_KEY=banner["CLAUZ3_APPROVAL_VERIFY_KEY"])
    proc = subprocess.Popen(
        [sys.executable, "-m", "clauz3", "run", "--trusted-root", str(project / "tools" / "email" / "trusted"),
         "--import-root", str(project), "--request-id", rid, "prog.py"],
        cwd=project, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    approver = {"Authorization": f"Bearer {APPROVER}"}
    try:
        with httpx.Client(base_url=url, trust_env=False, timeout=60) as client:
            for _ in range(2400):
                listed = client.get("/api/requests", headers=approver).json()
                rows = listed["requests"] if isinstance(listed, dict) else listed
                if any(r.get("request_id") == rid and r.get("state") == "pending" for r in rows):
                    break
                if proc.poll() is not None:
                    out, err = proc.communicate()
                    raise AssertionError(f"the run ended before its card was pending: {out}\n{err}")
                time.sleep(0.05)
            else:
                raise AssertionError("the card never became pending")
            decided = client.post(f"/api/requests/{rid}/decision", json={"decision": "approved_once"},
                                  headers=approver)
            assert decided.status_code == 200, decided.text
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, (out, err)
    assert "claims_mismatch" not in out + err
    assert "executed: main" in out, (out, err)
    return out


def test_an_identical_program_from_a_second_cold_worker_is_a_cache_hit_the_authority_accepts(
        project: Path, service: dict[str, str]) -> None:
    assert _entries(project) == {}
    _run_and_approve(project, service, "req_cache_run_0001")
    first = _entries(project)
    assert len(first) == 1, "the first run's proof was not stored in the worker's cache"

    _run_and_approve(project, service, "req_cache_run_0002")  # a new worker, a new pinned copy
    assert _entries(project) == first, "the second identical run proved again instead of using the cache"

    contracts = project / "tools" / "email" / "trusted" / "contracts.py"
    contracts.write_bytes(contracts.read_bytes() + b"\n")  # one byte more: another layer
    _run_and_approve(project, service, "req_cache_run_0003")
    after = _entries(project)
    assert len(after) == 2 and set(first) < set(after), "an edited library reused the old verdict"
