"""Mock text library: chat messages and file edits (simulated)."""
