"""Red team of issue 19's approval path, with attack classes the fixes were not written against.

Each test is one attack through the real path and asserts the SAFE behaviour. The sandbox attacks use
the issue 19 harness (real supervisor, real worker with its sandbox, the in-process mock authority):
a hostile trusted effect of a lab layer in a tmp workspace tries to leave the run in a new way.
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_issue19_sandbox import LAB_CONTRACTS, MANIFEST, needs_landlock

from clauz3.approvals.mock import MockApprovalService
from clauz3.runs.supervisor import RunConfig, RunResult, Supervisor

RED_EFFECTS = '''"""A hostile trusted library: each effect tries a new way out of the sandbox and says what happened."""

import errno
import os
import socket
import subprocess

import clauz3


def _refused(exc: OSError) -> str:
    return "refused:" + errno.errorcode.get(exc.errno or 0, "?")


@clauz3.trusted
def outlive(marker: str) -> str:
    """Start a process in its own session that should outlive the run."""
    proc = subprocess.Popen(["sleep", "300", marker], start_new_session=True, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return str(proc.pid)


@clauz3.trusted
def scan_proc(marker: str) -> str:
    """Every process whose environment or command line shows marker."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        for name in ("environ", "cmdline"):
            try:
                with open("/proc/" + pid + "/" + name, "rb") as fh:
                    if marker.encode() in fh.read():
                        found.append(pid + "/" + name)
            except OSError:
                pass
    return ",".join(found) or "none"


@clauz3.trusted
def plant_at(path: str) -> str:
    """Append a line to path."""
    try:
        with open(path, "a") as fh:
            fh.write("planted\\n")
        return "wrote"
    except OSError as exc:
        return _refused(exc)


@clauz3.trusted
def ancestor_fds() -> str:
    """Where the open file descriptors of this process and of its ancestors point."""
    out = []
    pid = os.getpid()
    while pid > 1:
        try:
            for fd in os.listdir("/proc/" + str(pid) + "/fd"):
                try:
                    out.append(str(pid) + ":" + fd + "=" + os.readlink("/proc/" + str(pid) + "/fd/" + fd))
                except OSError:
                    pass
            with open("/proc/" + str(pid) + "/stat") as fh:
                pid = int(fh.read().rsplit(")", 1)[1].split()[1])
        except OSError:
            break
    return "|".join(out)


@clauz3.trusted
def write_through_ancestor_fd(needle: str) -> str:
    """Open, for writing, an ancestor's descriptor whose target contains needle."""
    pid = os.getppid()
    results = []
    while pid > 1:
        try:
            for fd in os.listdir("/proc/" + str(pid) + "/fd"):
                link = "/proc/" + str(pid) + "/fd/" + fd
                try:
                    target = os.readlink(link)
                except OSError:
                    continue
                if needle in target:
                    try:
                        with open(link, "ab"):
                            pass
                        results.append("opened:" + target)
                    except OSError as exc:
                        results.append(_refused(exc))
            with open("/proc/" + str(pid) + "/stat") as fh:
                pid = int(fh.read().rsplit(")", 1)[1].split()[1])
        except OSError:
            break
    return ",".join(results) or "none"


@clauz3.trusted
def abstract_connect(name: str) -> str:
    """Connect to the abstract unix socket name."""
    try:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    except OSError as exc:
        return _refused(exc)
    s.settimeout(10)
    try:
        s.connect("\\0" + name)
        return "connected"
    except OSError as exc:
        return _refused(exc)
    finally:
        s.close()


@clauz3.trusted
def symlink_then_write(link: str, target: str) -> str:
    """Make link point at target, then append through it."""
    try:
        os.symlink(target, link)
    except OSError as exc:
        return "symlink " + _refused(exc)
    return plant_at(link)


@clauz3.trusted
def rename_away(path: str) -> str:
    """Rename path to path + '.old' and make a new empty folder in its place."""
    try:
        os.rename(path, path + ".old")
        os.mkdir(path)
        return "swapped"
    except OSError as exc:
        return _refused(exc)
'''

NAMES = "outlive, scan_proc, plant_at, ancestor_fds, write_through_ancestor_fd, abstract_connect, " \
        "symlink_then_write, rename_away"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    proj = Path(os.path.realpath(tmp_path)) / "proj"
    root = proj / "tools" / "red"
    (root / "trusted").mkdir(parents=True)
    (root / "clauz3.yaml").write_text(MANIFEST.format(name="red"))
    (root / "trusted" / "__init__.py").write_text('"""The red test library."""\n')
    (root / "trusted" / "effects.py").write_text(RED_EFFECTS)
    (root / "trusted" / "contracts.py").write_text(LAB_CONTRACTS)
    (proj / ".clauz3").mkdir()
    (proj / ".clauz3" / "settings.txt").write_text("the person's\n")
    return proj


def program(*lines: str) -> str:
    body = "".join(f"    {line}\n" for line in lines)
    return ("import clauz3\nfrom tools.red.trusted import contracts as lab\n"
            f"from tools.red.trusted.effects import {NAMES}\n\n\n"
            f"@clauz3.guarantee(lab.no_guarantees())\ndef main() -> None:\n{body}")


def run(project: Path, data: Path, svc: MockApprovalService, source: str) -> RunResult:
    config = RunConfig(
        source=source, project=project, trusted_roots=[str(project / "tools" / "red" / "trusted")],
        import_roots=[str(project)], service_url=svc.url, submission_token=svc.token,
        verify_key=svc.verify_key.text, data_dir=data, use_cache=False,
    )
    return Supervisor(config).run()


def lines(result: RunResult) -> dict[str, str]:
    assert result.record.phase == "completed", (result.record.reason, result.record.message, result.stderr)
    out: dict[str, str] = {}
    for line in result.stdout.splitlines():
        key, _, value = line.partition(" ")
        out[key] = value
    return out


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


# ------------------------------------------------------------------------------- sandbox: lifetime

@needs_landlock
def test_a_process_started_in_its_own_session_does_not_outlive_the_run(project: Path, data: Path) -> None:
    with MockApprovalService(data, project) as svc:
        got = lines(run(project, data, svc, program('print("pid " + outlive("redteam19-outlive"))')))
    pid = int(got["pid"])
    deadline = time.monotonic() + 60
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.2)
    alive = _alive(pid)
    if alive:
        os.kill(pid, 9)
    assert not alive, "a process the run started is still running after the run ended"


# ------------------------------------------------------------------------- sandbox: credentials in /proc

@needs_landlock
def test_no_process_the_worker_can_see_shows_the_submission_token(project: Path, data: Path) -> None:
    with MockApprovalService(data, project) as svc:
        got = lines(run(project, data, svc, program(f'print("found " + scan_proc({svc.token[:24]!r}))')))
    assert got["found"] == "none", got


# ------------------------------------------------------------------ sandbox: descriptors and magic links

@needs_landlock
def test_no_descriptor_of_the_worker_or_its_ancestors_reaches_the_data_dir(project: Path, data: Path) -> None:
    with MockApprovalService(data, project) as svc:
        got = lines(run(project, data, svc, program(
            f'print("write " + write_through_ancestor_fd({str(data)!r}))',
            'print("fds " + ancestor_fds())')))
    assert "opened:" not in got["write"], got["write"]


@needs_landlock
def test_the_parents_cwd_magic_link_does_not_reach_the_trusted_roots(project: Path, data: Path) -> None:
    trusted = project / "tools" / "red" / "trusted" / "effects.py"
    before = trusted.read_bytes()
    rel = "tools/red/trusted/effects.py"
    with MockApprovalService(data, project) as svc:
        got = lines(run(project, data, svc, program(
            f'print("cwd " + plant_at("/proc/" + "self" + "/cwd/" + {rel!r}))',
            f'print("thread " + plant_at("/proc/thread-self/root" + {str(trusted)!r}))',
            'print("init " + plant_at("/proc/1/cwd/tmp/redteam19-init"))')))
    assert got["cwd"].startswith("refused:") and got["thread"].startswith("refused:"), got
    assert trusted.read_bytes() == before


@needs_landlock
def test_a_symlink_made_in_the_run_does_not_reach_the_trusted_roots_or_dot_clauz3(project: Path, data: Path) -> None:
    trusted = project / "tools" / "red" / "trusted" / "effects.py"
    before = trusted.read_bytes()
    with MockApprovalService(data, project) as svc:
        got = lines(run(project, data, svc, program(
            f'print("lnk " + symlink_then_write({str(project / "lnk.py")!r}, {str(trusted)!r}))',
            f'print("dot " + symlink_then_write({str(project / "dot.txt")!r}, '
            f'{str(project / ".clauz3" / "settings.txt")!r}))')))
    assert not got["lnk"] == "wrote" and not got["dot"] == "wrote", got
    assert trusted.read_bytes() == before
    assert (project / ".clauz3" / "settings.txt").read_text() == "the person's\n"


@needs_landlock
def test_a_trusted_root_cannot_be_renamed_away_and_replaced(project: Path, data: Path) -> None:
    trusted = project / "tools" / "red" / "trusted"
    with MockApprovalService(data, project) as svc:
        got = lines(run(project, data, svc, program(
            f'print("root " + rename_away({str(trusted)!r}))',
            f'print("lib " + rename_away({str(trusted.parent)!r}))',
            f'print("dot " + rename_away({str(project / ".clauz3")!r}))')))
    assert got == {**got, "root": got["root"]} and not any(v == "swapped" for k, v in got.items()), got
    assert (trusted / "effects.py").read_text() == RED_EFFECTS


# ---------------------------------------------------------------------------- sandbox: abstract sockets

@pytest.fixture
def abstract_listener() -> Iterator[str]:
    name = f"clauz3-redteam19-{os.getpid()}"
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind("\0" + name)
    srv.listen(8)
    yield name
    srv.close()


@needs_landlock
def test_the_worker_cannot_reach_an_abstract_unix_socket(project: Path, data: Path, abstract_listener: str) -> None:
    """An abstract socket has no path, so Landlock's file rules never see it: a same-user service listening
    on one (a session bus, an agent's helper) would be the network the layer did not declare."""
    with MockApprovalService(data, project) as svc:
        got = lines(run(project, data, svc, program(f'print("abstract " + abstract_connect({abstract_listener!r}))')))
    assert got["abstract"].startswith("refused:"), got


# ------------------------------------------------------------------ credentials: the browser's command line

def test_the_sign_in_key_is_in_no_command_line_of_the_browser_clauz3_opens(tmp_path: Path) -> None:
    """``clauz3 ui`` opens the person's browser on the private link. A process's command line is readable by
    every local user (``/proc/<pid>/cmdline``), and a browser keeps its arguments for its whole life: the
    sign-in key must reach the browser some other way. The browser here is a recorder at the true edge
    (``$BROWSER``): it writes the arguments it was started with and exits."""
    import subprocess
    import sys

    record = tmp_path / "argv.txt"
    browser = tmp_path / "browser.sh"
    browser.write_text(f'#!/bin/sh\nprintf "%s\\n" "$@" > {record}\nexit 0\n')
    browser.chmod(0o700)
    (tmp_path / "tmpdir").mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAUZ3_")}
    env.update(CLAUZ3_HOME=str(tmp_path / "data"), TMPDIR=str(tmp_path / "tmpdir"), BROWSER=str(browser))
    proc = subprocess.Popen([sys.executable, "-m", "clauz3", "ui", "demo", "--tutorial"], cwd=tmp_path, env=env,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        link = proc.stdout.readline()
        assert "key=" in link, link
        token = link.strip().split("key=", 1)[1]
        deadline = time.monotonic() + 90
        while not record.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        argv = record.read_text()  # the browser was started (a check that ran on nothing fails)
        assert argv.strip(), argv
        assert token not in argv, f"the sign-in key is in the browser's command line: {argv!r}"
        # What the browser was given still signs the person in: a private file that leads to the link.
        [given] = argv.split()
        assert given.startswith("file://"), given
        opened = Path(given.removeprefix("file://"))
        assert (opened.stat().st_mode & 0o777) == 0o600 and (opened.parent.stat().st_mode & 0o777) == 0o700
        assert token in opened.read_text()
        from playwright.sync_api import sync_playwright

        with sync_playwright() as pw:  # the real browser, given only the file, lands signed in on the workspace
            chromium = pw.chromium.launch(executable_path="/usr/bin/chromium")
            try:
                page = chromium.new_page()
                page.goto(given)
                page.wait_for_url("http://127.0.0.1:*/ui", timeout=60_000)
                page.wait_for_selector("#page-constants", state="attached", timeout=60_000)
            finally:
                chromium.close()
    finally:
        from proc_tree import descendants, wait_gone

        started = descendants(proc.pid)
        proc.terminate()
        proc.wait(90)
        wait_gone(started, "the workspace's processes")
