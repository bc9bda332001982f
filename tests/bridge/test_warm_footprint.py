"""tree_rss (06 §3, DEC-6): the bridge's warm prover holds z3, the prover and the loaded layer, but no z3 context
(01 WARM-1) and not the receipt check and ledger (cryptography, sqlite3): every forked worker's RSS counts the
warm process's pages again, and the worker loads those while the authority proves its request. The real ``_warm_main`` on a real
layer, in a fresh ``python -I`` as the bridge starts it; its modules are read once it has served and exited."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

HEAVY = ("cryptography", "sqlite3", "_sqlite3", "clauz3.runs.ledger", "clauz3.approvals.receipts",
         "clauz3.approvals.keys")
WRAPPER = ("import json, sys\n"
           "from clauz3.bridge.warm import _warm_main\n"
           "code = _warm_main(int(sys.argv[1]))\n"
           "import z3.z3\n"
           "print(json.dumps({'code': code, 'modules': sorted(sys.modules), 'z3_context': z3.z3._main_ctx is not None}))\n")


def test_warm_prover_is_ready_without_a_z3_context_cryptography_or_sqlite(project: Path) -> None:
    parent, child = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    proc = subprocess.Popen([sys.executable, "-I", "-B", "-X", "utf8", "-c", WRAPPER, str(child.fileno())],
                            pass_fds=[child.fileno()], cwd=str(project), stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    child.close()
    try:
        parent.settimeout(120)
        parent.sendall(json.dumps({"project": str(project),
                                   "trusted_roots": [str(project / "tools" / "email" / "trusted")],
                                   "import_roots": [str(project / ".clauz3"), str(project)]}).encode())
        ready = json.loads(parent.recv(65536).decode())
        assert ready.get("ready") is True, ready
    finally:
        parent.close()  # EOF: the warm process returns from _warm_main
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err[-2000:]
    doc = json.loads(out.strip().splitlines()[-1])
    loaded = set(doc["modules"])
    # it really got warm: z3, the prover, the interpreter, the worker and the submit client are loaded
    assert {"z3", "clauz3.prover.api", "clauz3.interp.api", "clauz3.runs.worker", "clauz3.runs.client"} <= loaded
    assert sorted(m for m in loaded if any(m == h or m.startswith(h + ".") for h in HEAVY)) == []
    # 01 WARM-1: it waits with no z3 context (~18 MiB each; a forked worker makes its own on first use)
    assert doc["z3_context"] is False


SPAWN_EARLY = """
import json, os, sys
from pathlib import Path
from clauz3.bridge.warm import WarmProver
project = Path(sys.argv[1])
warm = WarmProver.start(project=project, trusted_roots=[str(project / "tools" / "email" / "trusted")],
                        import_roots=[str(project / ".clauz3"), str(project)], wait=False)
ready_at_spawn = warm._ready.is_set()
r, w = os.pipe()
worker = warm.spawn({"PATH": "/usr/bin:/bin"}, str(project), [r])
out = {"ready_at_spawn": ready_at_spawn, "warm": worker is not None, "forks": warm.forks}
if worker is not None:
    worker.stdin.close()  # no configuration: the forked worker says so and exits 2
    out["worker_exit"] = worker.wait(60)
    out["stderr"] = worker.stderr.read().decode()
warm.stop()
print(json.dumps(out))
"""


def test_a_run_that_comes_while_the_warm_prover_starts_waits_for_it(project: Path) -> None:
    """Not a cold worker beside a loading warm process (two z3 loads at once, both in the tree at the card)."""
    done = subprocess.run([sys.executable, "-I", "-c", SPAWN_EARLY, str(project)], capture_output=True, text=True,
                          timeout=180, cwd=str(project))  # a process of its own: the warm prover makes it a subreaper
    assert done.returncode == 0, done.stderr[-2000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["ready_at_spawn"] is False  # the run really came before the warm process was ready
    assert out["warm"] is True and out["forks"] == 1
    assert out["worker_exit"] == 2 and "invalid worker configuration" in out["stderr"]
