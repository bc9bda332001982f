"""The PageOnlyBridge (tests/sessions/fakes/page_only_bridge.py) whose `status` tool answers with hostile
HTML, so a browser test can check that tool results stay inert (06 QB-16)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import anyio

FAKE = Path(__file__).resolve().parents[1] / "sessions" / "fakes" / "page_only_bridge.py"
PAYLOAD = ('<img src=x onerror="window.__pwned=11"><script>window.__pwned=12</script>'
           '[click](javascript:window.__pwned=13)')

spec = importlib.util.spec_from_file_location("page_only_bridge", FAKE)
assert spec is not None and spec.loader is not None
bridge = importlib.util.module_from_spec(spec)
sys.modules["page_only_bridge"] = bridge
spec.loader.exec_module(bridge)
original = bridge.call_tool


async def call_tool(ctx: Any, params: Any) -> Any:
    if params.name == "status":
        return bridge._result(PAYLOAD, {"runs": [], "note": PAYLOAD})
    return await original(ctx, params)


bridge.call_tool = call_tool

if __name__ == "__main__":
    anyio.run(bridge.main)
