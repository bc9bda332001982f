"""The MCP bridge (03 §16): the stdio server an agent starts, exposing exactly six tools.

``python -P -m clauz3.bridge --project DIR [--trusted-root R]… [--import-root R]… [--check]``.
Credentials arrive only over the host's lifetime socket (03 CRED-4); trusted code is never imported
here (MCP-3): the catalogue and the skills are snapshots taken at start.
"""

TOOL_NAMES: tuple[str, ...] = ("run", "status", "tools", "libraries", "list_skills", "read_skill")
