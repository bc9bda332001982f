"""Mock web search over a bundled fictional corpus (05 WEB-3)."""
