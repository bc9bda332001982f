"""SQLite stores and atomic files shared by every layer (below all packages that persist state)."""
