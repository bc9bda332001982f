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
import json
import os
import selectors
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import webbrowser
from pathlib import Path

from clauz3.approvals.tokens import generate_token
from clauz3.sessions.launch.config import CONFIG_ENV, LaunchConfig, write_config
from clauz3.sessions.launch.errors import LaunchError

READY_TIMEOUT = 20.0
STOP_GRACE = 5.0


class ServiceDied(Exception):
    pass


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
    def __init__(self, config: LaunchConfig, *, open_browser: bool, warning: str | None = None) -> None:
        self.config = config
        self.open_browser = open_browser
        self.warning = warning
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
            try:
                opened = webbrowser.open(url)
            except Exception:
                opened = False
            if not opened:
                print("warning: couldn't open a browser; open the private link above", file=sys.stderr)
        return self._wait(interactive)

    def _wait(self, interactive: bool) -> int:
        assert self.control is not None and self.proc is not None
        selector = selectors.DefaultSelector()
        selector.register(self.control, selectors.EVENT_READ, "control")
        if interactive:
            selector.register(sys.stdin, selectors.EVENT_READ, "stdin")
        while True:
            for key, _ in selector.select(timeout=1.0):
                if key.data == "stdin":
                    if not sys.stdin.readline():
                        selector.unregister(sys.stdin)
                        continue
                    self._send({"op": "new_login"})
                elif key.data == "control":
                    try:
                        line = self._read_line(0.5)
                    except ServiceDied:
                        return self._died()
                    if isinstance(line, dict) and isinstance(line.get("login_url"), str):
                        print(f"Open this private link: {line['login_url']}", flush=True)
            if self.proc.poll() is not None:
                return self._died()

    def _died(self) -> int:
        print("error: the workspace service stopped unexpectedly", file=sys.stderr)
        return 70

    def _send(self, obj: dict[str, object]) -> None:
        assert self.control is not None
        with contextlib.suppress(OSError):
            self.control.sendall((json.dumps(obj) + "\n").encode())

    def _read_line(self, timeout: float) -> object:
        assert self.control is not None
        deadline = time.monotonic() + timeout
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            self.control.settimeout(left)
            try:
                chunk = self.control.recv(65536)
            except TimeoutError:
                return None
            except OSError:
                raise ServiceDied() from None
            if not chunk:
                if self._buffer:
                    break
                raise ServiceDied()
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        try:
            return json.loads(line.decode("utf-8"))
        except (ValueError, UnicodeDecodeError):
            return None

    def stop(self) -> None:
        """LAUNCH-8: SIGTERM the service, wait 5 s, SIGKILL its group, remove ``<tmp>``."""
        old = signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            if self.control is not None:
                with contextlib.suppress(OSError):
                    self.control.close()
                self.control = None
            proc = self.proc
            if proc is not None:
                if proc.poll() is None:
                    with contextlib.suppress(ProcessLookupError):
                        proc.send_signal(signal.SIGTERM)
                    with contextlib.suppress(subprocess.TimeoutExpired):
                        proc.wait(STOP_GRACE)
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(proc.pid, signal.SIGKILL)
                with contextlib.suppress(subprocess.TimeoutExpired):
                    proc.wait(2.0)
            if self.tmp is not None:
                shutil.rmtree(self.tmp, ignore_errors=True)
        finally:
            signal.signal(signal.SIGINT, old)
