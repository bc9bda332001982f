"""``python -P -m clauz3.agents.demo``: the scripted demo agent over ACP on stdin/stdout (04 DEMO-1).

Stdout carries only JSON-RPC; every diagnostic goes to stderr. EOF on stdin ends the process with
status 0 after closing each session's bridge connection.
"""

from __future__ import annotations

import asyncio
import logging
import sys

import acp

from .agent import DemoAgent


async def _main() -> int:
    agent = DemoAgent()
    try:
        await acp.run_agent(agent)  # type: ignore[arg-type]  # DemoAgent serves a subset of acp.Agent; the SDK answers the rest -32601
    finally:
        await agent.close()
    return 0


def main() -> int:
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="demo: %(levelname)s %(message)s")
    try:
        return asyncio.run(_main())
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
