"""tree_rss (issue 22): the demo agent talks to its bridge over stdio with the official MCP client, but
must not load the SDK's HTTP and server stack (the HTTP client, Starlette, uvicorn, cryptography, click:
about 20 MiB in a process that lives as long as the conversation). A fresh ``python -P`` connects a real
:class:`BridgeConnection` to the fake bridge (a real MCP stdio server), makes a tool call, and reports
what it imported."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

FAKE_BRIDGE = Path(__file__).parent / "fixtures" / "fake_bridge.py"  # a real MCP stdio server

HEAVY = ("mcp.server", "mcp.client.client", "mcp.client.streamable_http", "httpx", "httpx2", "starlette",
         "uvicorn", "sse_starlette", "cryptography", "click")

SCRIPT = """
import asyncio, json, sys
from clauz3.agents.demo.bridge_client import BridgeConnection, StdioEntry

async def main():
    entry = StdioEntry("clauz3", sys.executable, (sys.argv[1],), (("FAKE_BRIDGE_LOG", sys.argv[2]),))
    connection = BridgeConnection(entry, sys.argv[3])
    await connection.open()
    result = await connection.call("tools", {})
    await connection.close()
    return result

result = asyncio.run(main())
print(json.dumps({"modules": sorted(sys.modules), "text": result.text, "is_error": result.is_error,
                  "structured": result.structured is not None}))
"""


def test_demo_agent_bridge_client_loads_no_http_or_server_stack(tmp_path: Path) -> None:
    log = tmp_path / "calls.jsonl"
    done = subprocess.run([sys.executable, "-P", "-c", SCRIPT, str(FAKE_BRIDGE), str(log), str(tmp_path)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["is_error"] is False and "email" in out["text"]  # the call went through the SDK's ClientSession
    assert [json.loads(line)["tool"] for line in log.read_text().splitlines()] == ["tools"]
    loaded = set(out["modules"])
    assert {"mcp.client.session", "mcp_types", "mcp.shared.message"} <= loaded
    heavy = sorted(m for m in loaded if any(m == h or m.startswith(h + ".") for h in HEAVY))
    assert heavy == []


def test_a_bare_package_still_gives_its_own_names() -> None:
    """After the lean load, ``from mcp import ClientSession`` (the SDK's documented spelling) still works and
    is the very class the demo uses: asking the bare package for a name runs its ``__init__`` then."""
    script = ("import sys\n"
              "from clauz3.agents.demo import mcp_client\n"
              "mcp_client.load()\n"
              "lean = 'starlette' not in sys.modules\n"
              "from mcp import ClientSession, stdio_client\n"
              "from mcp.client.session import ClientSession as Defined\n"
              "import mcp.types\n"
              "print(lean, ClientSession is Defined, callable(stdio_client), mcp.types.TextContent.__name__)\n")
    done = subprocess.run([sys.executable, "-P", "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "True", "True", "TextContent"]
