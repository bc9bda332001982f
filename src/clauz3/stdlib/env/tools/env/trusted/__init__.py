"""Environment variables of the run (05 ENV-1)."""
