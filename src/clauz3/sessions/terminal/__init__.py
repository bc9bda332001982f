"""The terminal frontends of ``clauz3 start``/``resume``: input, output, Claude Code's own UI, records."""
