"""Publisher observers (the terminal frontend's hook): every frame and state change, page or not."""

from __future__ import annotations

import asyncio

from clauz3.sessions.conversation.publisher import STATE_DELAY, Publisher, Subscriber


async def test_observers_see_frames_and_every_state_change_without_changing_the_page_queue() -> None:
    publisher = Publisher(lambda: {"history": [], "state": {}}, lambda: {"n": 1})
    frames: list[dict] = []
    states: list[str] = []
    publisher.observe(frames.append, lambda: states.append("s"))
    publisher.send({"method": "session/update", "params": {"i": 0}})  # no page subscribed yet
    publisher.state_changed()
    publisher.state_now()
    assert frames == [{"method": "session/update", "params": {"i": 0}}] and states == ["s", "s"]

    subscriber = Subscriber()
    publisher.attach(subscriber)
    assert (await subscriber.next())["method"] == "clauz3/restore"
    publisher.send({"method": "session/update", "params": {"i": 1}})
    publisher.state_changed()
    publisher.state_changed()  # coalesced for the page, not for observers
    await asyncio.sleep(STATE_DELAY * 3)
    assert states == ["s", "s", "s", "s"]  # the coalesced flush does not call observers again
    assert frames[-1] == {"method": "session/update", "params": {"i": 1}}
    assert await subscriber.next() == {"method": "session/update", "params": {"i": 1}}
    assert await subscriber.next() == {"method": "clauz3/state", "params": {"n": 1}}
    assert not subscriber.frames and subscriber.state is None
