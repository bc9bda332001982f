"""The authority's prover children start after the first agent is up (issue 13, first minute).

A warm child imports the prover and Z3 (about a CPU-second) the moment a conversation's layer is
registered, which is exactly when the agent and its bridge are starting on a 2-core machine.
:class:`LaterWarmVerifier` holds those warm starts until :meth:`release`; nothing else changes: a
proof or policy rule asked meanwhile starts its child at once (``ProofVerifier._ask``), so a verdict
never waits on the hold and never depends on it.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterable
from pathlib import Path

from clauz3.prover.verify import ProofVerifier

RELEASE_LIMIT = 30.0  # seconds: a start that hangs must not keep the cards cold for ever
POLL = 0.05

_Warm = tuple[tuple[str, ...], tuple[str, ...], str]


class LaterWarmVerifier(ProofVerifier):
    def __init__(self) -> None:
        super().__init__()
        self._hold_lock = threading.Lock()
        self._held: list[_Warm] | None = []
        self._closed = False

    def warm(self, trusted_roots: Iterable[str | Path], import_roots: Iterable[str | Path],
             project: str | Path) -> None:
        wanted = (tuple(str(p) for p in trusted_roots), tuple(str(p) for p in import_roots), str(project))
        with self._hold_lock:
            if self._held is not None:
                if wanted not in self._held:
                    self._held.append(wanted)
                return
        super().warm(*wanted)

    def release(self) -> None:
        """Start every held warm child now; later warm calls start theirs at once."""
        with self._hold_lock:
            if self._closed:
                return
            held, self._held = self._held or [], None
        for trusted, imports, project in held:
            try:
                super().warm(trusted, imports, project)
            except OSError:
                pass  # a failed warm start only means a cold first proof, as before the hold

    def close(self) -> None:
        with self._hold_lock:
            self._closed = True  # a release after close must not start children nobody will end
            self._held = []
        super().close()


async def release_when_started(verifier: LaterWarmVerifier, starting: Callable[[], bool]) -> None:
    """Release ``verifier`` once ``starting()`` turns false (the agent is ready, stopped or failed)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + RELEASE_LIMIT
    while starting() and loop.time() < deadline:
        await asyncio.sleep(POLL)
    await asyncio.to_thread(verifier.release)  # spawning a child must not stall the event loop
