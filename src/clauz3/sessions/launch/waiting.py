"""The ``clauz3 ui`` launcher's waiting form (02 §1, LAUNCH-7/8; 06 §3 tree_rss).

Once the service is ready and the link printed, the launcher has nothing left to do but wait, yet
its interpreter still holds the CLI, the provider table and their imports (~24 MiB resident for as
long as the workspace lives). It therefore replaces itself (``execv``, same pid, same terminal, the
service still its child) with ``python -I -S`` running this file, which imports only the standard
library: ~11 MiB. The behaviour is the launcher's own ``_wait`` and ``stop``: Enter asks the service
for a fresh link, Ctrl-C → 130, SIGTERM → 143, service death → 70, and every path ends the service
group and removes ``<tmp>``.

Run as a script (``-S`` leaves site-packages out, so nothing here may import ``clauz3``)::

    python -I -S waiting.py SERVICE_PID CONTROL_FD TMP_DIR INTERACTIVE(0|1)

(no secret ever goes into these arguments: the launcher execs only with nothing unread from the service)
"""

from __future__ import annotations

import json
import os
import selectors
import shutil
import signal
import socket
import sys
import time
from collections.abc import Callable

STOP_GRACE = 5.0
EXIT_SERVICE_DIED = 70
GUARDED = (signal.SIGINT, signal.SIGTERM)  # blocked by the launcher across execv; unblocked once handled


class ServiceDied(Exception):
    """Not a SessionError: this file runs under ``python -I -S`` and may import only the standard library."""


def read_line(control: socket.socket, buffer: bytes, timeout: float) -> tuple[object, bytes]:
    """One JSON line from the service's control socket within ``timeout`` (None if none or not JSON) and
    what is left of ``buffer``; ServiceDied when the socket closed."""
    deadline = time.monotonic() + timeout
    while b"\n" not in buffer:
        left = deadline - time.monotonic()
        if left <= 0:
            return None, buffer
        control.settimeout(left)
        try:
            chunk = control.recv(65536)
        except TimeoutError:
            return None, buffer
        except OSError:
            raise ServiceDied() from None
        if not chunk:
            if buffer:
                break
            raise ServiceDied()
        buffer += chunk
    line, _, buffer = buffer.partition(b"\n")
    try:
        return json.loads(line.decode("utf-8")), buffer
    except (ValueError, UnicodeDecodeError):
        return None, buffer


class Waiter:
    def __init__(self, pid: int, control: socket.socket | None, tmp: str, interactive: bool, pending: bytes,
                 service_exited: Callable[[], int | None] | None = None) -> None:
        self.pid = pid
        self._exited = service_exited  # the launcher's own Popen.poll when it waits in-process (Popen reaps)
        self.control: socket.socket | None = control
        self.tmp = tmp
        self.interactive = interactive
        self._buffer = pending
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self._exited is not None:
            return self._exited()
        if self.returncode is None:
            try:
                pid, status = os.waitpid(self.pid, os.WNOHANG)
            except ChildProcessError:
                self.returncode = -1
                return self.returncode
            if pid == self.pid:
                self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def wait_exit(self, timeout: float) -> bool:
        end = time.monotonic() + timeout
        while self.poll() is None:
            if time.monotonic() >= end:
                return False
            time.sleep(0.02)
        return True

    def wait(self) -> int:
        assert self.control is not None
        selector = selectors.DefaultSelector()
        selector.register(self.control, selectors.EVENT_READ, "control")
        if self.interactive:
            selector.register(sys.stdin, selectors.EVENT_READ, "stdin")
        while True:
            if b"\n" in self._buffer:
                self._line_from_service(0.0)
            for key, _ in selector.select(timeout=1.0):
                if key.data == "stdin":
                    if not sys.stdin.readline():
                        selector.unregister(sys.stdin)
                        continue
                    self._send({"op": "new_login"})
                elif key.data == "control":
                    try:
                        self._line_from_service(0.5)
                    except ServiceDied:
                        return self._died()
            if self.poll() is not None:
                return self._died()

    def _line_from_service(self, timeout: float) -> None:
        line = self._read_line(timeout)
        if isinstance(line, dict) and isinstance(line.get("login_url"), str):
            print(f"Open this private link: {line['login_url']}", flush=True)

    def _died(self) -> int:
        print("error: the workspace service stopped unexpectedly", file=sys.stderr)
        return EXIT_SERVICE_DIED

    def _send(self, obj: dict[str, object]) -> None:
        assert self.control is not None
        try:
            self.control.sendall((json.dumps(obj) + "\n").encode())
        except OSError:
            pass

    def _read_line(self, timeout: float) -> object:
        assert self.control is not None
        line, self._buffer = read_line(self.control, self._buffer, timeout)
        return line

    def stop(self) -> None:
        """LAUNCH-8, as the launcher's own stop: SIGTERM the service, wait 5 s, SIGKILL its group, remove <tmp>."""
        old = signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            if self.control is not None:
                try:
                    self.control.close()
                except OSError:
                    pass
                self.control = None
            if self.poll() is None:
                try:
                    os.kill(self.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
                self.wait_exit(STOP_GRACE)
            try:
                os.killpg(self.pid, signal.SIGKILL)  # the service leads its own session (start_new_session)
            except (ProcessLookupError, PermissionError):
                pass
            self.wait_exit(2.0)
            shutil.rmtree(self.tmp, ignore_errors=True)
        finally:
            signal.signal(signal.SIGINT, old)


def _terminate(_signum: int, _frame: object) -> None:
    raise SystemExit(143)


def main(argv: list[str]) -> int:
    pid, fd, tmp, interactive = int(argv[0]), int(argv[1]), argv[2], argv[3] == "1"
    waiter = Waiter(pid, socket.socket(fileno=fd), tmp, interactive, b"")
    signal.signal(signal.SIGTERM, _terminate)
    code = 1
    try:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, GUARDED)  # a Ctrl-C pressed during execv arrives here
        code = waiter.wait()
    except KeyboardInterrupt:
        code = 130
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    finally:
        waiter.stop()
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
