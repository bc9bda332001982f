"""The authority's warm prover children wait for the first agent (issue 13), with real children."""

from __future__ import annotations

import asyncio
from pathlib import Path

from clauz3.sessions.launch.warm_later import LaterWarmVerifier, release_when_started


def children(verifier: LaterWarmVerifier) -> list[int]:
    return [child.proc.pid for child in verifier._children.values() if child.alive()]


def test_warm_is_held_until_release_then_starts_the_child(tmp_path: Path) -> None:
    verifier = LaterWarmVerifier()
    try:
        verifier.warm([str(tmp_path / "lib")], [str(tmp_path)], str(tmp_path))
        verifier.warm([str(tmp_path / "lib")], [str(tmp_path)], str(tmp_path))  # the same layer again
        assert children(verifier) == []
        verifier.release()
        assert len(children(verifier)) == 1
        verifier.warm([str(tmp_path / "other")], [str(tmp_path)], str(tmp_path))  # after release: at once
        assert len(children(verifier)) == 2
    finally:
        verifier.close()
    assert children(verifier) == []


def test_release_after_close_starts_nothing(tmp_path: Path) -> None:
    verifier = LaterWarmVerifier()
    verifier.warm([], [str(tmp_path)], str(tmp_path))
    verifier.close()
    verifier.release()
    assert verifier._children == {}


def test_released_when_the_agent_stops_starting(tmp_path: Path) -> None:
    verifier = LaterWarmVerifier()
    status = {"value": "starting"}

    async def scenario() -> tuple[int, int]:
        verifier.warm([], [str(tmp_path)], str(tmp_path))
        watcher = asyncio.create_task(release_when_started(verifier, lambda: status["value"] == "starting"))
        await asyncio.sleep(0.3)
        held = len(children(verifier))
        status["value"] = "ready"
        await asyncio.wait_for(watcher, 30)
        return held, len(children(verifier))

    try:
        assert asyncio.run(scenario()) == (0, 1)
    finally:
        verifier.close()
