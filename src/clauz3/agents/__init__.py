"""Built-in ACP agents. ``demo`` is the scripted agent with no model, no network and no account.

This package imports nothing internal from clauz3: only the ``acp`` and ``mcp`` SDKs and the
standard library (04 DEMO-1), so it can run from a plain interpreter as the host's adapter.
"""
