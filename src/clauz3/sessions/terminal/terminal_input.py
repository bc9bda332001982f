"""Lines from the terminal for the terminal frontend (05 TRM-4).

Terminals and pipes are watched by the event loop itself and read only when readable, so after
the command ends nothing is left reading: keys typed after exit belong to the shell. A regular
file cannot be watched; a daemon thread reads it instead (such reads never wait for a person).
Whole lines reach the caller in order; Ctrl-C stays a signal for the loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading

CHUNK = 65536


class LineReader:
    """``await next()`` gives the next line without its newline, or None at end of input."""

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._queue: asyncio.Queue[str | None] = asyncio.Queue()
        self._loop = asyncio.get_running_loop()
        self._eof = False
        self._pending = b""
        self._watching = False
        try:
            self._loop.add_reader(fd, self._readable)
            self._watching = True
        except (PermissionError, OSError, ValueError):
            threading.Thread(target=self._read, name="clauz3.terminal.stdin", daemon=True).start()

    def close(self) -> None:
        if self._watching:
            self._watching = False
            with contextlib.suppress(Exception):
                self._loop.remove_reader(self._fd)

    def _readable(self) -> None:
        try:
            chunk = os.read(self._fd, CHUNK)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            chunk = b""
        if not chunk:
            self.close()
            if self._pending:
                self._queue.put_nowait(self._pending.decode("utf-8", "replace"))
                self._pending = b""
            self._queue.put_nowait(None)
            return
        self._pending += chunk
        while b"\n" in self._pending:
            line, _, self._pending = self._pending.partition(b"\n")
            self._queue.put_nowait(line.rstrip(b"\r").decode("utf-8", "replace"))

    def _put(self, line: str | None) -> None:
        with contextlib.suppress(RuntimeError):  # the loop already closed: nobody is waiting
            self._loop.call_soon_threadsafe(self._queue.put_nowait, line)

    def _read(self) -> None:
        pending = b""
        while True:
            try:
                chunk = os.read(self._fd, CHUNK)
            except InterruptedError:
                continue
            except OSError:
                chunk = b""
            if not chunk:
                if pending:
                    self._put(pending.decode("utf-8", "replace"))
                self._put(None)
                return
            pending += chunk
            while b"\n" in pending:
                line, _, pending = pending.partition(b"\n")
                self._put(line.rstrip(b"\r").decode("utf-8", "replace"))

    async def next(self) -> str | None:
        if self._eof:
            return None
        line = await self._queue.get()
        if line is None:
            self._eof = True
        return line
