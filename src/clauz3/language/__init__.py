"""Parsing and checking the Python subset into one IR (01 §3)."""
