"""Web search through a configured HTTP search service (05 WEB-3)."""
