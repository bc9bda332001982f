"""The six tools over a real stdio bridge subprocess and the official MCP client (03 §16, 04 TST-10)."""

from __future__ import annotations

from pathlib import Path

from .conftest import SIX, bridge_session, text_of
from .fakehost import FakeHost


async def test_lists_exactly_six_tools_with_schemas_and_catalogue(project: Path, host: FakeHost) -> None:
    async with bridge_session(project, host) as session:
        listing = await session.list_tools()
        assert sorted(t.name for t in listing.tools) == sorted(SIX)
        assert all(t.input_schema and t.output_schema for t in listing.tools)

        status = await session.call_tool("status", {})
        assert not status.is_error and text_of(status) == "No runs yet."
        assert status.structured_content == {"runs": []}

        tools = await session.call_tool("tools", {"query": "send"})
        assert not tools.is_error
        names = [e["name"] for e in tools.structured_content["entries"]]
        assert names == ["send_email"]
        entry = tools.structured_content["entries"][0]
        assert entry["import"] == "from tools.email.trusted.effects import send_email"
        assert entry["domain"] == "email" and entry["kind"] == "effect"

        none = await session.call_tool("tools", {"query": "zzz"})
        assert not none.is_error and "No installed tools match." in text_of(none)
        assert none.structured_content == {"view": "api", "entries": []}

        source = await session.call_tool("tools", {"query": "send_email", "view": "source"})
        assert "def send_email" in text_of(source)

        bad = await session.call_tool("tools", {"view": "xml"})
        assert bad.is_error and text_of(bad).startswith("invalid arguments: ")
    assert host.uses == 1


async def test_negotiates_2025_11_25_and_works_with_mcp_client_modes(project: Path, host: FakeHost) -> None:
    import sys

    from mcp import Client, ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    from .conftest import bridge_args, bridge_env

    params = StdioServerParameters(command=sys.executable, args=bridge_args(project), env=bridge_env(host),
                                   cwd=str(project))
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        init = await session.initialize()
        assert init.protocol_version == "2025-11-25"
        assert init.server_info.name == "clauz3"
    for mode in ("legacy", "auto"):
        # Every connection is a new bridge process: a new start, with its own ticket (one handshake each).
        params = StdioServerParameters(command=sys.executable, args=bridge_args(project),
                                       env=bridge_env(host, host.mint()), cwd=str(project))
        async with Client(params, mode=mode) as client:
            listing = await client.list_tools()
            assert sorted(t.name for t in listing.tools) == sorted(SIX)
            status = await client.call_tool("status", {})
            assert text_of(status) == "No runs yet."
            missing = await client.call_tool("read_skill", {"id": "nope"})
            assert missing.is_error
