"""An agent subprocess in its own process group, with stderr drained (04 SUP-1, SUP-4, SUP-6).

The SDK's ``spawn_agent_process`` is never used: it trims the environment, leaves stderr as an
undrained pipe (a chatty agent then blocks), cannot create a process group, and races on
shutdown. Stderr may hold credentials, so it is discarded; only when a debug log path is given
is the last 256 KiB written there (0600) when the process ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

STREAM_LIMIT = 16 * 1024 * 1024
STDERR_CHUNK = 64 * 1024
STDERR_TAIL = 256 * 1024


@dataclass(frozen=True)
class AgentLaunch:
    """How to start one adapter. ``argv[0]`` is absolute (04 SUP-2); ``env`` is complete (SUP-3)."""

    argv: Sequence[str]
    cwd: Path
    env: Mapping[str, str]
    pass_fds: tuple[int, ...] = ()
    debug_log: Path | None = None  # write the stderr tail here at exit (--debug only)


class AgentProcess:
    """A started adapter: ``stdin``/``stdout`` pipes for ACP, stderr drained in the background."""

    def __init__(self, proc: asyncio.subprocess.Process, launch: AgentLaunch) -> None:
        self._proc = proc
        self._launch = launch
        self._tail = bytearray()
        self._drain = asyncio.create_task(self._drain_stderr(), name="acp.stderr")
        self._ended = False

    @classmethod
    async def start(cls, launch: AgentLaunch) -> AgentProcess:
        proc = await asyncio.create_subprocess_exec(
            *launch.argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            cwd=str(launch.cwd),
            env=dict(launch.env),
            pass_fds=launch.pass_fds,
            start_new_session=True,
            limit=STREAM_LIMIT,
        )
        return cls(proc, launch)

    @property
    def pid(self) -> int:
        return self._proc.pid

    @property
    def stdin(self) -> asyncio.StreamWriter:
        assert self._proc.stdin is not None
        return self._proc.stdin

    @property
    def stdout(self) -> asyncio.StreamReader:
        assert self._proc.stdout is not None
        return self._proc.stdout

    @property
    def returncode(self) -> int | None:
        return self._proc.returncode

    async def wait(self) -> int:
        return await self._proc.wait()

    async def _drain_stderr(self) -> None:
        stream = self._proc.stderr
        if stream is None:
            return
        keep = self._launch.debug_log is not None
        with contextlib.suppress(Exception):
            while chunk := await stream.read(STDERR_CHUNK):
                if keep:
                    self._tail += chunk
                    del self._tail[: max(0, len(self._tail) - STDERR_TAIL)]

    async def end(self, *, term_grace: float = 0.0) -> int | None:
        """Close stdin, signal the whole group (SIGTERM first only if ``term_grace`` > 0), reap.

        Idempotent; never raises ``ProcessLookupError`` when the group is already gone.
        """
        if self._ended:
            return self._proc.returncode
        self._ended = True
        with contextlib.suppress(Exception):
            self.stdin.close()
        if term_grace > 0:
            _killpg(self._proc.pid, signal.SIGTERM)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(self._proc.wait()), term_grace)
        # The group may outlive its leader (helpers), so kill it even after the leader exited.
        _killpg(self._proc.pid, signal.SIGKILL)
        code = await self._proc.wait()
        with contextlib.suppress(TimeoutError, asyncio.CancelledError):
            await asyncio.wait_for(self._drain, 2.0)
        self._write_tail()
        return code

    def _write_tail(self) -> None:
        path = self._launch.debug_log
        if path is None or not self._tail:
            return
        with contextlib.suppress(OSError):
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
            with os.fdopen(fd, "wb") as fh:
                fh.write(bytes(self._tail))


def _killpg(pgid: int, sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)
