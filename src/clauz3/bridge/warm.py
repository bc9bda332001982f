"""The warm prover (01 WARM-1/2, PERF-3; 00 DEC-7): a pre-imported worker template owned by the bridge.

The warm process is started like a run worker (``python -P -m clauz3.bridge.warm``, own session,
cwd = workspace, scrubbed environment), imports ``z3`` and the prover, loads and validates the
conversation's layer and then waits on a private ``SOCK_SEQPACKET`` socket, holding no solver
context, thread or workspace descriptor. For each run the bridge sends the worker's environment,
cwd and descriptors (stdin/stdout/stderr pipes plus progress, gate and lifetime, SCM_RIGHTS); the
warm process double-forks a child that applies RUN-4's per-run setup (new session, cwd,
descriptors, environment, ``TMPDIR``) and runs the ordinary worker, so every output is the cold
worker's. The bridge is a child subreaper, so the worker is re-parented to it and remains the
bridge's child in its own process group (DEC-7) — the supervisor waits for and kills it as usual.

Before each fork the bridge recomputes the layer fingerprint; a change replaces the warm process
(WARM-2). Any failure — no fork, no subreaper, a dead or stale warm process — yields ``None`` and the
supervisor spawns a cold worker. The warm process exits after 10 minutes idle and when the bridge's
end of the socket closes.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

IDLE_SECONDS = 600.0
READY_TIMEOUT = 60.0
# A run that comes while the warm process is still starting waits this long for it: that process is already
# further into the same imports a cold worker would start now, and a cold worker beside it would compete for
# the CPU and hold a second z3 (06 tree_rss). Past this, the run goes cold.
START_WAIT = 5.0
REPLY_TIMEOUT = 10.0
MAX_MESSAGE = 1024 * 1024
PR_SET_CHILD_SUBREAPER = 36
FD_FLOOR = 200  # received descriptors are parked above this before being placed


# ------------------------------------------------------------------------------- bridge side

def _become_subreaper() -> bool:
    """Linux: orphaned descendants (the double-forked workers) are re-parented to this process."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def layer_fingerprint(trusted_roots: Sequence[str], project: Path) -> str | None:
    try:
        from clauz3.language.layer import library_fingerprint

        return library_fingerprint([Path(r) for r in trusted_roots], project)
    except Exception:
        return None


class WarmWorker:
    """Popen-like handle on a warm-forked worker (what the supervisor uses of ``subprocess.Popen``)."""

    def __init__(self, pid: int, stdin_w: int, stdout_r: int, stderr_r: int) -> None:
        self.pid = pid
        self.returncode: int | None = None
        self.stdin: IO[bytes] = os.fdopen(stdin_w, "wb")
        self.stdout: IO[bytes] = os.fdopen(stdout_r, "rb", buffering=0)
        self.stderr: IO[bytes] = os.fdopen(stderr_r, "rb", buffering=0)
        self.warm = True

    def poll(self) -> int | None:
        if self.returncode is None:
            try:
                pid, status = os.waitpid(self.pid, os.WNOHANG)
            except ChildProcessError:
                self.returncode = -1  # reaped elsewhere; it is gone either way
                return self.returncode
            if pid == self.pid:
                self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        end = None if timeout is None else time.monotonic() + timeout
        delay = 0.001
        while self.poll() is None:
            if end is not None and time.monotonic() >= end:
                raise subprocess.TimeoutExpired("clauz3 warm worker", timeout or 0)
            time.sleep(delay)
            delay = min(delay * 2, 0.02)
        assert self.returncode is not None
        return self.returncode


class WarmProver:
    """The bridge's handle: start, spawn per run (or None → cold), replace on change, stop."""

    def __init__(self, project: Path, trusted_roots: Sequence[str], import_roots: Sequence[str]) -> None:
        self.project = project
        self.trusted_roots = list(trusted_roots)
        self.import_roots = list(import_roots)
        self._lock = threading.Lock()
        self._proc: subprocess.Popen[bytes] | None = None
        self._sock: socket.socket | None = None
        self._fingerprint: str | None = None
        self._ready = threading.Event()
        self._stopped = False
        self.forks = 0
        self.starts = 0

    @classmethod
    def start(cls, *, project: Path, trusted_roots: Sequence[str], import_roots: Sequence[str],
              wait: bool = False) -> WarmProver | None:
        """Start the warm process in the background; None when this platform cannot host one."""
        if not hasattr(os, "fork") or not hasattr(socket, "SOCK_SEQPACKET") or not _become_subreaper():
            return None
        warm = cls(project, trusted_roots, import_roots)
        warm._launch_async()
        if wait:
            warm._ready.wait(READY_TIMEOUT)
        return warm

    # ------------------------------------------------------------------------- lifecycle

    def _launch_async(self) -> None:
        self._ready.clear()
        threading.Thread(target=self._launch, daemon=True, name="warm-prover-start").start()

    def _launch(self) -> None:
        from clauz3.runs.workerproc import worker_environment
        from clauz3.storage.childenv import python_module_argv

        parent, child = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        # Isolated exactly as a cold worker (issue 11 §4): its sys.path and flags are what every forked
        # worker inherits, so nothing of the bridge's environment may shape them.
        env = worker_environment(Path(tempfile.gettempdir()))
        try:
            proc = subprocess.Popen(
                python_module_argv("clauz3.bridge.warm", str(child.fileno())),
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=None, cwd=str(self.project), env=env,
                start_new_session=True, pass_fds=[child.fileno()],
            )
        except OSError:
            parent.close()
            child.close()
            self._ready.set()
            return
        child.close()
        ready: dict[str, Any] | None = None
        try:
            parent.settimeout(READY_TIMEOUT)
            parent.sendall(json.dumps({"project": str(self.project), "trusted_roots": self.trusted_roots,
                                       "import_roots": self.import_roots}).encode("utf-8"))
            ready = json.loads(parent.recv(MAX_MESSAGE).decode("utf-8") or "null")
        except (OSError, ValueError):
            ready = None
        with self._lock:
            if self._stopped or not isinstance(ready, dict) or not ready.get("ready"):
                _end(proc, parent)
            else:
                parent.settimeout(REPLY_TIMEOUT)
                self._proc, self._sock = proc, parent
                self._fingerprint = ready.get("fingerprint")
                self.starts += 1
        self._ready.set()

    def stop(self) -> None:
        with self._lock:
            self._stopped = True
            proc, sock = self._proc, self._sock
            self._proc = self._sock = None
        if proc is not None and sock is not None:
            _end(proc, sock)

    def kill(self) -> None:
        """The bridge is exiting now (LIFE-1): SIGKILL the warm process's group without waiting."""
        with self._lock:
            self._stopped = True
            proc = self._proc
        if proc is not None:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass

    def _replace(self) -> None:
        with self._lock:
            proc, sock = self._proc, self._sock
            self._proc = self._sock = None
            stopped = self._stopped
        if proc is not None and sock is not None:
            _end(proc, sock)
        if not stopped:
            self._launch_async()

    @property
    def alive(self) -> bool:
        proc = self._proc
        return proc is not None and proc.poll() is None

    def wait_ready(self, timeout: float = READY_TIMEOUT) -> bool:
        self._ready.wait(timeout)
        return self.alive

    def _reap_orphans(self) -> None:
        """As a subreaper the bridge inherits the dead children of killed worker groups; reap them.

        Only exited processes are reaped; an exited warm process is reaped through its ``Popen`` (which
        keeps its status) and the reaping goes on past it. Runs are one at a time, so no worker of a
        live run can be among them.
        """
        proc = self._proc
        for _ in range(256):
            try:
                info = os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT)
            except (ChildProcessError, OSError):
                return
            if info is None:
                return
            if proc is not None and info.si_pid == proc.pid:
                if proc.poll() is None:
                    return  # another thread is reaping it right now: the rest waits for the next spawn
                continue
            try:
                os.waitpid(info.si_pid, os.WNOHANG)
            except ChildProcessError:
                return

    # ----------------------------------------------------------------------------- spawn

    def spawn(self, env: dict[str, str], cwd: str, pass_fds: list[int]) -> WarmWorker | None:
        """One worker forked from the warm process (the supervisor's spawner), or None for a cold one."""
        self._reap_orphans()
        if not self._ready.wait(START_WAIT):
            return None  # still starting after START_WAIT: a cold worker rather than a longer wait
        if not self.alive:
            self._replace()  # idle exit or failure: cold now, warm again next time
            return None
        if layer_fingerprint(self.trusted_roots, self.project) != self._fingerprint:
            self._replace()  # WARM-2: the layer changed under the warm process
            return None
        stdin_r, stdin_w = os.pipe()
        stdout_r, stdout_w = os.pipe()
        stderr_r, stderr_w = os.pipe()
        ours, theirs = [stdin_w, stdout_r, stderr_r], [stdin_r, stdout_w, stderr_w]
        header = json.dumps({"op": "fork", "cwd": cwd, "env": env, "targets": list(pass_fds)}).encode("utf-8")
        pid: int | None = None
        with self._lock:
            sock = self._sock
            if sock is not None and len(header) <= MAX_MESSAGE:
                try:
                    socket.send_fds(sock, [header], theirs + list(pass_fds))
                    reply = json.loads(sock.recv(65536).decode("utf-8") or "null")
                    if isinstance(reply, dict) and isinstance(reply.get("pid"), int) and reply["pid"] > 0:
                        pid = reply["pid"]
                except (OSError, ValueError):
                    pid = None
        for fd in theirs:
            os.close(fd)
        if pid is None:
            for fd in ours:
                os.close(fd)
            self._replace()
            return None
        self.forks += 1
        return WarmWorker(pid, stdin_w, stdout_r, stderr_r)


def _end(proc: subprocess.Popen[bytes], sock: socket.socket) -> None:
    try:
        sock.close()  # EOF: the warm process exits by itself
    except OSError:
        pass
    try:
        proc.wait(timeout=2)
    except subprocess.TimeoutExpired:
        proc.kill()
        try:
            proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            pass


# ------------------------------------------------------------------------------- warm side

def _warm_main(sock_fd: int) -> int:
    sock = socket.socket(fileno=sock_fd)
    sock.settimeout(READY_TIMEOUT)
    try:
        setup = json.loads(sock.recv(MAX_MESSAGE).decode("utf-8"))
        project = Path(setup["project"])
        trusted = [Path(p) for p in setup["trusted_roots"]]
        roots = ([str(p) for p in setup["trusted_roots"]], [str(p) for p in setup["import_roots"]])
    except (OSError, ValueError, KeyError, TypeError):
        return 2
    try:
        import z3  # noqa: F401  (the point: pay the imports once)

        # Also what a forked worker imports to submit (client) and to execute. Not the receipt check and
        # ledger (cryptography, sqlite: ~9 MiB held here and again in every forked worker's RSS): the
        # worker loads those in a thread while the authority proves its request (runs/worker.py).
        import clauz3.interp.api
        import clauz3.prover.api
        import clauz3.runs.client
        import clauz3.runs.worker  # noqa: F401
        from clauz3.prover.pipeline import fingerprint, layer_for
        from clauz3.runs import pinning

        # Issue 11 §2: load a private copy of the layer's bytes; forked workers run exactly that copy.
        pinned = pinning.pin_layer(*roots)
        layer_for([Path(p) for p in pinned.trusted_roots], [Path(p) for p in pinned.import_roots])
        pinning.PRELOADED = pinned
        print_fp = fingerprint(trusted, project)
        from clauz3.runs import confine

        confine.probe_once()  # issue 19: forked workers inherit the answer instead of forking a probe each
    except Exception as exc:  # a broken layer: no warm process; cold workers report the error properly
        _send(sock, {"ready": False, "error": f"{type(exc).__name__}: {exc}"[:500]})
        return 1
    try:
        return _serve_forks(sock, print_fp)
    finally:
        import shutil

        shutil.rmtree(pinned.directory, ignore_errors=True)


def _settle() -> None:
    """Before the first fork: every forked worker's RSS counts this process's mapped pages again, so give the
    loading's garbage back to the system first, and freeze the rest so a worker's collector never writes to
    (and so copies) the pages it shares with this process."""
    import gc

    from clauz3.base.memory import give_back

    give_back()
    gc.freeze()


def _serve_forks(sock: socket.socket, print_fp: str) -> int:
    _settle()
    _send(sock, {"ready": True, "fingerprint": print_fp})
    sock.settimeout(IDLE_SECONDS)
    while True:
        try:
            data, fds, _flags, _addr = socket.recv_fds(sock, MAX_MESSAGE, 16)
        except TimeoutError:
            return 0  # 10 minutes idle
        except OSError:
            return 0
        if not data:
            return 0  # the bridge is gone
        try:
            request = json.loads(data.decode("utf-8"))
            pid = _fork_worker(request, fds)
        except Exception:
            pid = -1
        finally:
            for fd in fds:
                try:
                    os.close(fd)
                except OSError:
                    pass
        _send(sock, {"pid": pid})


def _send(sock: socket.socket, doc: dict[str, Any]) -> None:
    try:
        sock.sendall(json.dumps(doc).encode("utf-8"))
    except OSError:
        pass


def _fork_worker(request: dict[str, Any], fds: list[int]) -> int:
    """Double fork: the grandchild runs the worker; its parent exits so the bridge (subreaper) adopts it."""
    targets = [int(t) for t in request["targets"]]
    if len(fds) != 3 + len(targets):
        return -1
    r, w = os.pipe()
    middle = os.fork()
    if middle == 0:
        try:
            os.close(r)
            worker = os.fork()
            if worker == 0:
                os.close(w)
                _become_worker(request, fds, targets)  # never returns
            os.write(w, str(worker).encode())
        finally:
            os._exit(0)
    os.close(w)
    with os.fdopen(r, "rb") as fh:
        text = fh.read().decode() or "-1"
    os.waitpid(middle, 0)  # once reaped, the worker is already the bridge's child
    return int(text)


def _become_worker(request: dict[str, Any], fds: list[int], targets: list[int]) -> None:
    code = 1  # as a cold worker that raised
    try:
        os.setsid()
        parked = [os.dup(fd) if fd >= FD_FLOOR else _park(fd) for fd in fds]
        places = [0, 1, 2, *targets]
        for src, dst in zip(parked, places, strict=True):
            os.dup2(src, dst)
        keep = set(places)
        for entry in os.listdir("/proc/self/fd") if os.path.isdir("/proc/self/fd") else []:
            fd = int(entry)
            if fd not in keep:
                try:
                    os.close(fd)
                except OSError:
                    pass
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update({str(k): str(v) for k, v in request["env"].items()})
        import tempfile

        tempfile.tempdir = None  # TMPDIR is this run's scratch directory
        from clauz3.runs.worker import main

        code = main()  # a cold worker's exit status too (e.g. 2 for a bad configuration)
    except BaseException:
        pass
    finally:
        os._exit(code)


def _park(fd: int) -> int:
    import fcntl

    return fcntl.fcntl(fd, fcntl.F_DUPFD, FD_FLOOR)


if __name__ == "__main__":
    sys.exit(_warm_main(int(sys.argv[1])))
