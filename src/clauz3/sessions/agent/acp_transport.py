"""Newline-delimited JSON-RPC over an agent's pipes, the message transport of :mod:`.jsonrpc`.

A line over 16 MiB ends the stream and is reported (04 SUP-5). Lines that are not a JSON object are skipped (04 ACP-14).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from typing import Any

MAX_LINE = 16 * 1024 * 1024
# A fast agent's buffered lines are read without ever suspending, which would starve the page's
# sender task until its 256-frame queue overflows into a full restore (02 WS-12). Yielding this
# often lets the sender drain as we go; a page that really stalls still overflows as specified.
YIELD_EVERY = 16
log = logging.getLogger("clauz3.sessions.acp")


class PipeTransport:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._reader = reader
        self._writer = writer
        self._lock = asyncio.Lock()
        self.oversize = False
        # Hooks, called synchronously: before a message is written, and once when input ends.
        self.on_send: Callable[[dict[str, Any]], None] | None = None
        self.on_end: Callable[[bool], None] | None = None
        self._ended = False
        self._unyielded = 0

    async def send(self, message: dict[str, Any]) -> None:
        data = (json.dumps(message, separators=(",", ":"), ensure_ascii=False) + "\n").encode("utf-8")
        if self.on_send is not None:
            self.on_send(message)
        async with self._lock:
            self._writer.write(data)
            await self._writer.drain()

    async def receive(self) -> dict[str, Any] | None:
        self._unyielded += 1
        if self._unyielded >= YIELD_EVERY:
            self._unyielded = 0
            await asyncio.sleep(0)
        message = await self._receive()
        if message is None and not self._ended:
            self._ended = True
            if self.on_end is not None:
                self.on_end(self.oversize)
        return message

    async def _receive(self) -> dict[str, Any] | None:
        while True:
            try:
                line = await self._reader.readuntil(b"\n")
            except asyncio.IncompleteReadError as exc:
                line = exc.partial
                if not line:
                    return None
            except asyncio.LimitOverrunError:
                self.oversize = True
                return None
            if len(line) > MAX_LINE:
                self.oversize = True
                return None
            text = line.strip()
            if not text:
                continue
            try:
                message = json.loads(text)
            except ValueError:
                log.debug("ignored a non-JSON line from the agent")
                continue
            if isinstance(message, dict):
                return message
            log.debug("ignored a JSON line that is not an object")

    async def close(self) -> None:
        try:
            self._writer.close()
        except Exception:  # the pipe may already be gone; closing is best effort
            log.debug("closing the agent's stdin failed", exc_info=True)
