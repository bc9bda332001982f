"""Frames to the one page subscriber (02 WS-1, WS-2, WS-10..12).

Everything runs on the service's event loop and nothing here awaits, so subscribing plus taking
the ``clauz3/restore`` snapshot is atomic with respect to publishing (WS-2). Publishing never
blocks: frames go into a bounded queue (256); on overflow the queue is replaced by ONE restore
holding the retained history at that instant, so no retained event is lost or shown twice.
At most one ``clauz3/state`` frame waits; a newer one replaces it, and a state whose encoding
equals the last one sent is never sent.

Observers (:meth:`Publisher.observe`, e.g. the terminal frontend) see every frame passed to ``send`` and
every state change, whether or not a page is subscribed; they are plain callables and never await.
"""

from __future__ import annotations

import asyncio
import json
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

QUEUE_FRAMES = 256
STATE_DELAY = 0.05


@dataclass(frozen=True)
class Close:
    code: int
    reason: str


def encode(frame: dict[str, Any]) -> str:
    return json.dumps(frame, ensure_ascii=False, separators=(",", ":"))


class Subscriber:
    """One connected page: a bounded queue the socket's sender task drains."""

    def __init__(self, limit: int = QUEUE_FRAMES) -> None:
        self.limit = limit
        self.frames: deque[dict[str, Any] | Close] = deque()
        self.state: dict[str, Any] | None = None
        self.last_state: str | None = None
        self.overflows = 0
        self._wake = asyncio.Event()
        self.closed = False

    def put(self, frame: dict[str, Any] | Close) -> bool:
        """False when the queue is full (the caller restores)."""
        if self.closed:
            return True
        if isinstance(frame, Close):
            self.frames.append(frame)
            self.closed = True
        elif len(self.frames) >= self.limit:
            return False
        else:
            self.frames.append(frame)
        self._wake.set()
        return True

    def replace_with(self, restore: dict[str, Any]) -> None:
        self.frames.clear()
        self.state = None
        self.overflows += 1
        self.frames.append(restore)
        self._wake.set()

    def put_state(self, frame: dict[str, Any]) -> None:
        text = encode(frame)
        if text == self.last_state or self.closed:
            return
        self.state = frame
        self._wake.set()

    async def next(self) -> dict[str, Any] | Close:
        while True:
            if self.frames:
                frame = self.frames.popleft()
                if isinstance(frame, dict) and frame.get("method") == "clauz3/restore":
                    self.last_state = encode({"method": "clauz3/state", "params": frame["params"]["state"]})
                return frame
            if self.state is not None:
                frame, self.state = self.state, None
                text = encode(frame)
                if text != self.last_state:
                    self.last_state = text
                    return frame
                continue
            self._wake.clear()
            await self._wake.wait()


class Publisher:
    """The host side: ``snapshot()`` builds restore params; ``state()`` builds the State object."""

    def __init__(self, snapshot: Callable[[], dict[str, Any]], state: Callable[[], dict[str, Any]]) -> None:
        self._snapshot = snapshot
        self._state = state
        self.subscriber: Subscriber | None = None
        self._state_pending = False
        self._frame_observers: list[Callable[[dict[str, Any]], None]] = []
        self._state_observers: list[Callable[[], None]] = []

    def observe(self, on_frame: Callable[[dict[str, Any]], None] | None = None,
                on_state: Callable[[], None] | None = None) -> None:
        """Also call ``on_frame`` with every sent frame and ``on_state`` on every state change (at once,
        not coalesced); the page's queue is fed first and unchanged."""
        if on_frame is not None:
            self._frame_observers.append(on_frame)
        if on_state is not None:
            self._state_observers.append(on_state)

    def restore_frame(self) -> dict[str, Any]:
        return {"method": "clauz3/restore", "params": self._snapshot()}

    def attach(self, subscriber: Subscriber) -> None:
        """Subscribe and queue the restore in one step (WS-2, WS-3)."""
        self.subscriber = subscriber
        subscriber.put(self.restore_frame())

    def detach(self, subscriber: Subscriber) -> None:
        if self.subscriber is subscriber:
            self.subscriber = None

    def send(self, frame: dict[str, Any]) -> None:
        """Queue a frame (retained ones are stored by the caller first, WS-11)."""
        sub = self.subscriber
        if sub is not None and not sub.put(frame):
            sub.replace_with(self.restore_frame())
        for observer in self._frame_observers:
            observer(frame)

    def restore(self) -> None:
        sub = self.subscriber
        if sub is not None:
            self.send(self.restore_frame())

    def state_changed(self) -> None:
        """Coalesce state changes; the frame goes out within STATE_DELAY (WS-10: ≤ 250 ms)."""
        self._notify_state()
        if self._state_pending or self.subscriber is None:
            return
        self._state_pending = True
        asyncio.get_running_loop().call_later(STATE_DELAY, self._flush_state)

    def state_now(self) -> None:
        """Send the current state at once (a run phase change): coalescing must not hide a short phase
        such as ``executing`` from the progress indicator (TURN-10). Unchanged encodings are dropped."""
        self._notify_state()
        self._put_state()

    def _notify_state(self) -> None:
        for observer in self._state_observers:
            observer()

    def _put_state(self) -> None:
        sub = self.subscriber
        if sub is not None:
            sub.put_state({"method": "clauz3/state", "params": self._state()})

    def _flush_state(self) -> None:
        self._state_pending = False
        self._put_state()
