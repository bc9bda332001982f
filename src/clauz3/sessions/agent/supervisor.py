"""The agent supervisor (02 PROC-1): ``python -P -m clauz3.sessions.agent.supervisor <fd> -- <argv…>``.

It leads its own process group, starts the adapter in that group (inheriting stdin/stdout for ACP
and stderr, which the service drains), and watches ``<fd>``, the read end of a pipe whose only
write end the service holds: EOF there (service ended the agent, or died) kills the whole group.
Adapter exit kills the rest of the group and exits with the adapter's status. It never writes
to stdout.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading


def _kill_group_except_self() -> None:
    me = os.getpid()
    group = os.getpgid(0)
    try:
        entries = os.listdir("/proc")
    except OSError:
        entries = []
    for name in entries:
        if not name.isdigit() or int(name) == me:
            continue
        with contextlib.suppress(OSError):
            if os.getpgid(int(name)) == group:
                os.kill(int(name), signal.SIGKILL)


def _watch(fd: int) -> None:
    with contextlib.suppress(OSError):
        while os.read(fd, 1):
            pass
    # Lifetime pipe closed: nothing of this agent may outlive the service's wish.
    with contextlib.suppress(OSError):
        os.killpg(os.getpgid(0), signal.SIGKILL)
    os._exit(137)


def main(argv: list[str]) -> int:
    if len(argv) < 3 or argv[1] != "--" or not argv[0].isdigit():
        print("usage: python -m clauz3.sessions.agent.supervisor <fd> -- <argv…>", file=sys.stderr)
        return 2
    fd = int(argv[0])
    with contextlib.suppress(OSError):
        os.setsid()  # already a leader when started with start_new_session; harmless then
    os.set_inheritable(fd, False)
    try:
        child = subprocess.Popen(argv[2:], close_fds=True)
    except OSError as exc:
        print(f"supervisor: cannot start the agent: {exc.strerror}", file=sys.stderr)
        return 127
    threading.Thread(target=_watch, args=(fd,), daemon=True).start()
    def on_term(*_: object) -> None:
        _kill_group_except_self()
        os._exit(143)

    signal.signal(signal.SIGTERM, on_term)
    code = child.wait()
    _kill_group_except_self()
    return code if code >= 0 else 128 - code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
