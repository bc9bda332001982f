"""Issue 12: New conversation applies the current library defaults. A blank conversation whose libraries
were changed is not reused with its stale selection (the old library chip); one that already has the
defaults is reused (no empty conversations pile up)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sessions_harness import recv, recv_until, signed_in, state_is


async def send(ws: Any, name: str, **params: Any) -> None:
    await ws.send(json.dumps({"method": name, "params": params}))


async def test_new_conversation_applies_the_current_defaults(tmp_path: Path) -> None:
    async with signed_in(tmp_path) as svc:
        ws = await svc.ws()
        first = (await recv(ws))["params"]["state"]
        cid, defaults = first["conversation_id"], first["libraries"]
        assert defaults, "the harness project has a default library"
        await recv_until(ws, state_is(agent_status="ready"))
        # Blank and already on the defaults: reused.
        await send(ws, "clauz3/new")
        again, _ = await recv_until(ws, lambda f: f["method"] == "clauz3/restore", timeout=20)
        assert again["params"]["state"]["conversation_id"] == cid
        # The blank conversation loses its library; New conversation brings the defaults back.
        await send(ws, "clauz3/libraries", conversation_id=cid, domains=[])
        await recv_until(ws, state_is(libraries=[], agent_status="ready"), timeout=20)
        await send(ws, "clauz3/new")
        fresh, _ = await recv_until(ws, lambda f: f["method"] == "clauz3/restore", timeout=20)
        assert fresh["params"]["state"]["libraries"] == defaults
        assert fresh["params"]["state"]["conversation_id"] != cid
        await ws.close()
