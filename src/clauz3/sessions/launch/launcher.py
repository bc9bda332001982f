"""The foreground ``clauz3 ui`` launcher (02 §1, LAUNCH-2..8).

Order: private ``<tmp>`` → bind 127.0.0.1 and listen → ``ui.json`` (0600, O_EXCL) → exactly one
service process in its own session, inheriting only the bound socket and one end of a control
socketpair → readiness line → print the login link → wait. Enter asks the service for a fresh
link; Ctrl-C → 130, SIGTERM → 143, service death → 70. Every path ends the service group and
removes ``<tmp>``.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

from clauz3.approvals.tokens import generate_token
from clauz3.sessions.launch.config import CONFIG_ENV, LaunchConfig, write_config
from clauz3.sessions.launch.errors import LaunchError
from clauz3.sessions.launch.private_link import open_private_link
from clauz3.sessions.launch.waiting import read_line

READY_TIMEOUT = 20.0
STOP_GRACE = 5.0


def bind_loopback(port: int) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    # Accepted connections inherit it: without, a response in two segments waits ~40 ms (Nagle).
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    try:
        sock.bind(("127.0.0.1", port))
        sock.listen(128)
    except OSError as exc:
        sock.close()
        if exc.errno in (errno.EADDRINUSE, errno.EACCES):
            raise LaunchError("port_in_use", f"port {port} is already in use on 127.0.0.1") from None
        raise LaunchError("cannot_listen", f"cannot listen on 127.0.0.1:{port}: {exc.strerror or exc}") from None
    return sock


def child_env(config_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAUZ3_APPROVAL")}
    env.pop(CONFIG_ENV, None)
    env[CONFIG_ENV] = str(config_path)
    return env


class Launcher:
    def __init__(self, config: LaunchConfig, *, open_browser: bool, warning: str | None = None,
                 wait_small: bool = False) -> None:
        self.config = config
        self.open_browser = open_browser
        self.warning = warning
        self.wait_small = wait_small  # the CLI's launcher waits as waiting.py (execv); never in a caller's process
        self.tmp: Path | None = None
        self.proc: subprocess.Popen[bytes] | None = None
        self.control: socket.socket | None = None
        self._buffer = b""

    def run(self) -> int:
        try:
            return self._run()
        finally:
            self.stop()

    def _run(self) -> int:
        self.tmp = Path(tempfile.mkdtemp(prefix="clauz3-ui-"))
        os.chmod(self.tmp, 0o700)
        listener = bind_loopback(self.config.port)
        self.config.port = listener.getsockname()[1]
        self.config.tmp_dir = str(self.tmp)
        self.config.login_token = generate_token()
        config_path = self.tmp / "ui.json"
        write_config(config_path, self.config)
        ours, theirs = socket.socketpair()
        stderr: int | None = subprocess.DEVNULL
        if self.config.debug:
            stderr = None
        try:
            self.proc = subprocess.Popen(
                # -I: the service holds the signing key and runs in the workspace (issue 11 §4)
                [sys.executable, "-I", "-m", "clauz3.sessions.web.service", "--listen-fd", str(listener.fileno()),
                 "--control-fd", str(theirs.fileno())],
                pass_fds=(listener.fileno(), theirs.fileno()), start_new_session=True, env=child_env(config_path),
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=stderr, cwd=self.config.project)
        finally:
            listener.close()
            theirs.close()
        self.control = ours
        first = self._read_line(READY_TIMEOUT)
        if first is None or not isinstance(first, dict):
            raise LaunchError("service_not_started", "the workspace service did not start")
        if first.get("ok") is not True:
            raw_error = first.get("error")
            error = raw_error if isinstance(raw_error, dict) else {}
            code = str(error.get("code", "startup_failed"))
            raise LaunchError(code, str(error.get("message", "the workspace service did not start")))
        url = f"http://127.0.0.1:{self.config.port}/ui/login?key={self.config.login_token}"
        if self.warning:
            print(f"warning: {self.warning}", file=sys.stderr)
        print(f"Open this private link: {url}", flush=True)
        print("clauz3 workspace is running. Press Ctrl-C to stop.", flush=True)
        interactive = sys.stdin.isatty()
        if interactive:
            print("Press Enter for a new private link.", flush=True)
        if self.open_browser:
            opened = open_private_link(url, self.tmp)  # never the key in the browser's argv
            if not opened:
                print("warning: couldn't open a browser; open the private link above", file=sys.stderr)
        if self.wait_small:
            self._exec_waiter(interactive)  # returns only when execv failed: wait here instead
        return self._wait(interactive)

    def _exec_waiter(self, interactive: bool) -> None:
        """Become ``python -I -S waiting.py`` (same pid, the service stays our child): ~11 MiB instead of ~24.

        SIGINT/SIGTERM stay blocked across execv (the mask survives it) until the waiter handles them, so a
        Ctrl-C at that moment still ends the service and removes <tmp>.
        """
        assert self.control is not None and self.proc is not None and self.tmp is not None
        if self._buffer:
            return  # an unread line from the service never goes into an argv (other users can read cmdlines)
        from clauz3.sessions.launch import waiting

        argv = [sys.executable, "-I", "-S", os.path.abspath(waiting.__file__), str(self.proc.pid),
                str(self.control.fileno()), str(self.tmp), "1" if interactive else "0"]
        sys.stdout.flush()
        sys.stderr.flush()
        signal.pthread_sigmask(signal.SIG_BLOCK, waiting.GUARDED)
        try:
            self.control.set_inheritable(True)
            os.execv(sys.executable, argv)
        except OSError:
            self.control.set_inheritable(False)
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, waiting.GUARDED)

    def _wait(self, interactive: bool) -> int:
        """Wait here (a caller's own process, or execv failed): the waiting form's loop, this process's stop."""
        assert self.control is not None and self.proc is not None and self.tmp is not None
        from clauz3.sessions.launch.waiting import Waiter

        return Waiter(self.proc.pid, self.control, str(self.tmp), interactive, self._buffer,
                      service_exited=self.proc.poll).wait()

    def _read_line(self, timeout: float) -> object:
        assert self.control is not None
        line, self._buffer = read_line(self.control, self._buffer, timeout)
        return line

    def stop(self) -> None:
        """LAUNCH-8: SIGTERM the service, wait 5 s, SIGKILL its group, remove ``<tmp>`` — the waiting form's
        own stop (one routine for both forms), given this process's Popen to reap the service."""
        from clauz3.sessions.launch.waiting import Waiter

        if self.proc is not None and self.tmp is not None:
            Waiter(self.proc.pid, self.control, str(self.tmp), False, b"", service_exited=self.proc.poll).stop()
        else:  # the service never started: only our own socket and <tmp> to clean
            if self.control is not None:
                with contextlib.suppress(OSError):
                    self.control.close()
            if self.tmp is not None:
                shutil.rmtree(self.tmp, ignore_errors=True)
        self.control = None
