"""Shared helpers for benchmark modules."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Sample:
    name: str
    values: list[float]
    unit: str = "s"
    target: float | None = None
    kind: str = "time"  # time | count (a QB bar: missing it fails the run) | ratio
    unmeasured: str | None = None  # why this entry could not be measured (bench/run.py then exits 1)
    note: str = ""  # printed beside the verdict, e.g. how many attempts a count covers


def unmeasured(name: str, reason: str) -> Sample:
    return Sample(name, [], unmeasured=reason)


def clauz3(*args: str, env: dict[str, str] | None = None, cwd: Path | None = None) -> tuple[float, int]:
    """Time one `python -m clauz3 …` process from spawn to exit."""
    full_env = dict(os.environ, **(env or {}))
    # Measure what a user sees: compiled modules cached after the first run.
    full_env.pop("PYTHONDONTWRITEBYTECODE", None)
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "clauz3", *args], cwd=cwd or ROOT, env=full_env,
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start, proc.returncode


# -- spawned `clauz3 ui` launchers and their process trees (bench_ui, bench_store) ---------------

LINK = re.compile(r"Open this private link: (http://127\.0\.0\.1:(\d+)/ui/login\?key=\S+)")


def clean_env(home: Path, **extra: str) -> dict[str, str]:
    """The caller's environment without CLAUZ3_* (no stray approval service), plus a private home."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAUZ3_")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # measure with compiled modules cached, as users run
    env.update(CLAUZ3_HOME=str(home), **extra)
    return env


@dataclass
class Launched:
    proc: subprocess.Popen[str]
    link: str
    port: int
    spawned: float  # time.perf_counter() just before spawn
    spawned_epoch: float  # time.time() just before spawn (compared with the page's clock)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"


def spawn_ui(*args: str, home: Path, cwd: Path, timeout: float = 60.0) -> Launched:
    """Start `clauz3 ui <args> --no-browser --port 0` and return once it printed its sign-in link."""
    home.mkdir(parents=True, exist_ok=True, mode=0o700)
    argv = [sys.executable, "-m", "clauz3", "ui", *args, "--no-browser", "--port", "0"]
    epoch, start = time.time(), time.perf_counter()
    proc = subprocess.Popen(argv, cwd=cwd, env=clean_env(home), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, start_new_session=True)
    assert proc.stdout is not None
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        match = LINK.search(line)
        if match:
            return Launched(proc, match.group(1), int(match.group(2)), start, epoch)
        if not line and proc.poll() is not None:
            break
    stop_tree(proc)
    raise RuntimeError(f"clauz3 ui {' '.join(args)} printed no sign-in link (exit {proc.poll()})")


def children_map() -> dict[int, list[int]]:
    kids: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as fh:
                stat = fh.read()
        except OSError:
            continue
        # the command name may hold spaces or parentheses: fields start after the last ')'
        ppid = int(stat[stat.rindex(b")") + 2:].split()[1])
        kids.setdefault(ppid, []).append(int(entry))
    return kids


def descendants(pid: int) -> list[int]:
    """``pid`` and every live process below it."""
    kids = children_map()
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        todo.extend(kids.get(current, []))
    return found


def rss_mib(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/status", "rb") as fh:
            for line in fh:
                if line.startswith(b"VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def pss_mib(pid: int) -> float:
    """Proportional set size: shared pages (the interpreter, libz3) split among their users."""
    try:
        with open(f"/proc/{pid}/smaps_rollup", "rb") as fh:
            for line in fh:
                if line.startswith(b"Pss:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def cmdline(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            return fh.read().replace(b"\0", b" ").decode("utf-8", "replace")
    except OSError:
        return ""


def stop_tree(proc: subprocess.Popen[str], grace: float = 10.0) -> None:
    """Ctrl-C the launcher as a person would; then make sure nothing it started outlives it."""
    tree = descendants(proc.pid) if proc.poll() is None else []
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGINT)
        try:
            proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    if proc.stdout is not None:
        proc.stdout.close()
    time.sleep(0.2)
    for pid in tree:  # only processes this launcher started, by id
        if pid != proc.pid and cmdline(pid) and "clauz3" in cmdline(pid):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)


class RssSampler:
    """Peak RSS (MiB) of one process and of a whole tree, read from /proc every ``period`` s.

    The tree's RSS is the plain sum, so pages shared by several processes count once per process;
    ``tree_pss_peak`` (sampled every fifth round: smaps_rollup costs more) shares them out instead.
    """

    def __init__(self, root: int, service_marker: str = "clauz3.sessions.web.service", period: float = 0.02) -> None:
        self.root = root
        self.marker = service_marker
        self.period = period
        self.service_peak = 0.0
        self.tree_peak = 0.0
        self.tree_pss_peak = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True, name="rss-sampler")
        self._names: dict[int, str] = {}
        self.peak_parts: list[tuple[float, str]] = []  # (MiB, command line) of each process at the tree's peak

    def reset(self) -> None:
        self.service_peak = self.tree_peak = self.tree_pss_peak = 0.0

    def _run(self) -> None:
        rounds = 0
        while not self._stop.is_set():
            tree = descendants(self.root)
            if rounds % 5 == 0:
                self.tree_pss_peak = max(self.tree_pss_peak, sum(pss_mib(pid) for pid in tree))
            rounds += 1
            total = 0.0
            parts: list[tuple[float, str]] = []
            for pid in tree:
                rss = rss_mib(pid)
                total += rss
                name = self._names.get(pid)
                if name is None:
                    name = self._names[pid] = cmdline(pid)
                parts.append((rss, name))
                if self.marker in name:
                    self.service_peak = max(self.service_peak, rss)
            if total > self.tree_peak:
                self.tree_peak, self.peak_parts = total, sorted(parts, reverse=True)
            self._stop.wait(self.period)

    def __enter__(self) -> RssSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
