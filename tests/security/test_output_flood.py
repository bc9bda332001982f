"""06 QB-17: a trusted function printing 1 GiB on each stream → each capture capped at 1 MiB with the truncation
marker, and the run's supervisor (``clauz3 run``, RUN-13) stays under 150 MiB resident throughout."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import proc_tree

from clauz3.approvals.mock import MockApprovalService
from clauz3.runs.output import CAP_BYTES, truncation_marker

GIB_IN_MIB = 1024
RSS_LIMIT_KIB = 150 * 1024

MANIFEST = """schema_version: 1
name: flood
title: Flood test library
summary: Test-only effect that floods both output streams.
description: >-
  Used by the output-flood quality bar only. Never install it anywhere else.
"""
EFFECTS = '''"""An effect that writes a lot of output."""

import sys

import clauz3


@clauz3.trusted
def flood(megabytes: int) -> None:
    """Write ``megabytes`` MiB of ``y`` lines to standard output and as much to standard error."""
    chunk = ("y" * 1023 + "\\n") * 1024
    for _ in range(megabytes):
        sys.stdout.write(chunk)
        sys.stderr.write(chunk)
    sys.stdout.flush()
    sys.stderr.flush()
'''
CONTRACTS = '''"""Contracts over the flood effect."""

from tools.flood.trusted.effects import flood

from clauz3.spec import ContractSpec, contract, effect


@contract(description="at most {count} floods")
def floods_at_most(count: int) -> ContractSpec:
    return effect(flood).count() <= count
'''
PROGRAM = f'''import clauz3
from tools.flood.trusted import contracts as floods
from tools.flood.trusted.effects import flood


@clauz3.guarantee(floods.floods_at_most(1))
def main() -> None:
    flood({GIB_IN_MIB})
'''


def make_project(root: Path) -> Path:
    lib = root / "tools" / "flood"
    (lib / "trusted").mkdir(parents=True)
    (lib / "clauz3.yaml").write_text(MANIFEST)
    (lib / "trusted" / "__init__.py").write_text('"""Flood test library."""\n')
    (lib / "trusted" / "effects.py").write_text(EFFECTS)
    (lib / "trusted" / "contracts.py").write_text(CONTRACTS)
    (root / "main.py").write_text(PROGRAM)
    return root


def status_kib(pid: int, field: str) -> int | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def test_one_gib_on_each_stream_is_capped_and_the_supervisor_stays_small(tmp_path: Path) -> None:
    project = make_project(tmp_path / "proj")
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    out_path, err_path = tmp_path / "stdout.txt", tmp_path / "stderr.txt"
    with MockApprovalService(data, project) as svc:
        env = {k: v for k, v in os.environ.items() if not k.startswith("CLAUZ3_")}
        env.update(CLAUZ3_HOME=str(data), CLAUZ3_PROOF_CACHE="0", CLAUZ3_APPROVAL_SERVICE=svc.url,
                   CLAUZ3_APPROVAL_TOKEN=svc.token, CLAUZ3_APPROVAL_VERIFY_KEY=svc.verify_key.text)
        with out_path.open("wb") as out, err_path.open("wb") as err:
            proc = subprocess.Popen(
                [sys.executable, "-m", "clauz3", "run", "--trusted-root", "tools/flood/trusted", "--timeout", "300",
                 "main.py"], cwd=project, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=err)
            samples: list[int] = []
            tree_peaks: dict[int, int] = {}  # pid -> its own VmHWM (the worker's peak, the prover child's…)
            stop = threading.Event()

            def sample() -> None:
                while not stop.is_set():
                    hwm = status_kib(proc.pid, "VmHWM")
                    if hwm is not None:
                        samples.append(hwm)
                    for pid in proc_tree.descendants(proc.pid):
                        peak = status_kib(pid, "VmHWM")
                        if peak is not None:
                            tree_peaks[pid] = max(peak, tree_peaks.get(pid, 0))
                    time.sleep(0.05)

            sampler = threading.Thread(target=sample, daemon=True)
            sampler.start()
            try:
                _, status, _usage = os.wait4(proc.pid, 0)
            finally:
                stop.set()
                sampler.join()
            proc.returncode = os.waitstatus_to_exitcode(status)
    stdout = out_path.read_bytes().decode()
    stderr = err_path.read_bytes().decode()
    assert proc.returncode == 0, stderr[-2000:]
    discarded = GIB_IN_MIB * 1048576 - CAP_BYTES
    marker = truncation_marker(discarded)
    assert marker == f"[clauz3: output truncated after 1048576 bytes; {discarded} more bytes discarded]"
    program_out = stdout.split(marker)[0]
    assert stdout.count(marker) == 1 and program_out.count("y" * 1023 + "\n") == CAP_BYTES // 1024
    assert stderr.count(marker) == 1 and stderr.count("y" * 1023 + "\n") == CAP_BYTES // 1024
    assert len(stdout.encode()) < CAP_BYTES + 64 * 1024 and len(stderr.encode()) < CAP_BYTES + 64 * 1024
    print(f"supervisor VmHWM {max(samples, default=0)} KiB, descendants' VmHWM {tree_peaks} KiB")
    assert samples, "the supervisor's memory was never sampled"
    assert max(samples) < RSS_LIMIT_KIB, f"supervisor peak RSS {max(samples)} KiB"
    # QB-17 bounds the service (the supervisor above); the worker that prints the gigabyte is held to
    # the whole-tree bar of 06 §3 (tree_rss ≤ 400 MiB), which also catches unbounded buffering. Each
    # process's own VmHWM, sampled: wait4's ru_maxrss is no measure here, because Linux carries the
    # parent's high-water RSS across fork+exec, so under a large pytest worker it reports pytest's size.
    assert tree_peaks, "no process under the supervisor was ever sampled"
    assert max(tree_peaks.values()) < 400 * 1024, f"peak RSS in the run's process tree {tree_peaks} KiB"
