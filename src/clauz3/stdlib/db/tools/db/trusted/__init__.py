"""Typed SQLite access inside the project (05 DB-1)."""
