"""The built-in scripted ``demo`` ACP agent (04 §12): no model, no network, no account.

Launch: ``<python> -P -m clauz3.agents.demo``. Modules: :mod:`.script` (prompt → intent),
:mod:`.programs` (intent → program source), :mod:`.turn` (one turn's updates and tool calls),
:mod:`.agent` (the ACP side), :mod:`.bridge_client` (the MCP client), :mod:`.state` (session files).
"""
