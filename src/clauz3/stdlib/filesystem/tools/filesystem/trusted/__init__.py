"""Real files inside the project folder: reads, listings and journaled, atomic changes (05 §11.1)."""
