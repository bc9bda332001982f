"""Session-wide test setup (issue 23: the README's `uv run pytest` needs nothing else, and leaves nothing behind).

- Before any test, the pinned npm agent adapters are installed into the test prefix by
  ``scripts/install_adapters.sh``, once: only when a pin is missing, with a progress line; a machine without
  npm fails the session with what to install, instead of skipping the real-adapter tests.
- After each test that used ``tmp_path``, every process still running with that folder as its working
  directory or in its argv (a launcher, the service it detached, their agents, bridges and workers) is ended
  with its whole process group: the test's teardown, whether it passed or failed.
- At the end, the session fails if any process it started is still alive: below the pytest process, or
  working in or naming the session's temporary folder.

This folder (tests/) is on ``sys.path`` for every test, so shared helpers such as ``proc_tree`` and
``agent_registry`` import by name from any test directory.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import proc_tree
import pytest
from hypothesis import HealthCheck, settings
from npm_prefix import PREFIX, missing_pins

# No test may depend on the machine's speed (issue 23): Hypothesis's timing checks (a 200 ms deadline per
# example, "input generation is slow" after 1 s) fail on a loaded 2-core machine for reasons no product change
# caused. Every property test runs under this profile; the example counts stay each test's own.
settings.register_profile("clauz3", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("clauz3")

# Bytecode on, for this process and every process a test starts (workers, services, agents, bridges, CLIs):
# a machine that sets PYTHONDONTWRITEBYTECODE makes each of them compile every module it imports from
# source, every time (a third of a browser test's CPU). The product never depends on it: loading a trusted
# layer turns bytecode off itself (language/layer.py) and workers run with -B.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False

REPO = Path(__file__).resolve().parents[1]
INSTALL_SCRIPT = REPO / "scripts" / "install_adapters.sh"
SESSION_MARK = "CLAUZ3TEST_SESSION"  # not CLAUZ3_*: tests and the product strip those from children's environments
EXIT_GRACE_SECONDS = 30.0  # how long a process that is already ending may take before it counts as left behind


# -- the pinned adapters, installed once -------------------------------------------------------------------

def install_adapters(prefix: Path) -> None:
    """Run the install script into ``prefix`` when a pin is missing; ``pytest.exit`` when it cannot."""
    missing = missing_pins(prefix)
    if not missing:
        return
    if shutil.which("npm") is None:
        pytest.exit(f"the real-adapter tests need npm to install {', '.join(missing)} into {prefix}; install "
                    "Node.js and npm (e.g. `apt-get install npm`), then run `uv run pytest` again", returncode=4)
    print(f"installing pinned agent adapters (once) into {prefix}: {' '.join(missing)} ...",
          file=sys.__stderr__, flush=True)
    done = subprocess.run(["bash", str(INSTALL_SCRIPT)], env={**os.environ, "PREFIX": str(prefix)},
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=1800)
    still = missing_pins(prefix)
    if done.returncode != 0 or still:
        pytest.exit(f"scripts/install_adapters.sh failed (exit {done.returncode}; still missing: "
                    f"{', '.join(still) or 'nothing'}): {(done.stderr or done.stdout).strip()[-1500:]}", returncode=4)
    print("installing pinned agent adapters: done", file=sys.__stderr__, flush=True)


def pytest_configure(config: pytest.Config) -> None:
    if hasattr(config, "workerinput"):  # an xdist worker: the controller installed them before starting us
        return
    # Every process the tests start inherits this mark unless its environment is rebuilt; those that are
    # rebuilt (agents, workers) work in a test's tmp_path, which the end-of-session check looks for too.
    os.environ[SESSION_MARK] = f"{os.getpid()}-{time.time_ns()}"
    if config.getoption("collectonly") or config.getoption("help", False):
        return
    install_adapters(PREFIX)


# -- processes the tests started ---------------------------------------------------------------------------

def _cwd(pid: int) -> str:
    try:
        return os.readlink(f"/proc/{pid}/cwd")
    except OSError:
        return ""


def _naming(root: str) -> re.Pattern[str]:
    """``root`` as a whole path or a path prefix: pytest's ``test_x1`` must not match inside ``test_x10``."""
    return re.compile(re.escape(root) + r"(?![^/\s'\"=:,;])")


def _marked(pid: int, mark: bytes) -> bool:
    try:
        return mark in Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    except OSError:
        return False


def processes_naming(root: Path, mark: str | None = None) -> list[int]:
    """Live processes of this user, other than this one and its ancestors, that work in ``root`` or name a
    path under it in their argv (or, given ``mark``, carry ``CLAUZ3TEST_SESSION=mark`` in their environment)."""
    marked = f"{SESSION_MARK}={mark}".encode() if mark else None
    naming = _naming(str(root))
    mine = {os.getpid(), *_ancestors()}
    uid = os.getuid()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) in mine:
            continue
        pid = int(entry)
        try:
            if os.stat(f"/proc/{pid}").st_uid != uid:
                continue
        except OSError:
            continue
        argv = proc_tree.cmdline(pid)
        if not argv:  # gone, a zombie, or a kernel thread
            continue
        if naming.match(_cwd(pid)) or any(naming.search(arg) for arg in argv) or (
                marked is not None and _marked(pid, marked)):
            if proc_tree.alive(pid):
                found.append(pid)
    return found


def _ancestors() -> list[int]:
    out = []
    pid = os.getpid()
    while pid > 1:
        try:
            pid = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            break
        out.append(pid)
    return out


def end_groups(pids: list[int]) -> None:
    """SIGKILL each process's whole group (never the group pytest itself runs in), then the process."""
    own = os.getpgid(0)
    for pid in pids:
        try:
            group = os.getpgid(pid)
        except OSError:
            continue
        try:
            if group != own:
                os.killpg(group, signal.SIGKILL)
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def _describe(pids: list[int]) -> str:
    return "; ".join(f"{pid}: {' '.join(proc_tree.cmdline(pid))[:200]}" for pid in pids)


LEFT_BY_TESTS: list[str] = []  # what per-test teardown had to end, for the session summary


@pytest.fixture(autouse=True)
def _end_what_the_test_started(request: pytest.FixtureRequest) -> Iterator[None]:
    """Teardown of every test that used ``tmp_path``: end each process group still working there."""
    yield
    folder = request.node.funcargs.get("tmp_path") if hasattr(request.node, "funcargs") else None
    if not isinstance(folder, Path):
        return
    left = processes_naming(folder)
    if left:
        LEFT_BY_TESTS.append(f"{request.node.nodeid}: {_describe(left)}")
        end_groups(left)


def _session_leftovers(config: pytest.Config) -> list[int]:
    root = config._tmp_path_factory.getbasetemp()  # type: ignore[attr-defined]  # pytest's own factory
    # With xdist the controller's base folder holds every worker's; each worker's tmp paths are inside it.
    found = set(processes_naming(root, os.environ.get(SESSION_MARK)))
    found |= {pid for pid in proc_tree.descendants(os.getpid()) if proc_tree.alive(pid)}
    return sorted(found)


@pytest.hookimpl(wrapper=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> Iterator[None]:
    """After every other finisher (xdist's ends the workers): fail the session on a process left alive."""
    result = yield
    config = session.config
    if hasattr(config, "workerinput") or not hasattr(config, "_tmp_path_factory"):
        return result  # the controller checks, once, for every worker
    deadline = time.monotonic() + EXIT_GRACE_SECONDS
    left = _session_leftovers(config)
    while left and time.monotonic() < deadline:  # a process whose pipe just closed may still be on its way out
        time.sleep(0.5)
        left = _session_leftovers(config)
    if not left:
        return result
    described = _describe(left)
    end_groups(left)
    print(f"\nerror: processes started by the tests were still alive at the end of the session (ended now): "
          f"{described}", file=sys.__stderr__, flush=True)
    session.exitstatus = pytest.ExitCode.TESTS_FAILED
    return result


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if LEFT_BY_TESTS:
        terminalreporter.section("processes ended by test teardown")
        for line in LEFT_BY_TESTS:
            terminalreporter.write_line(line)
