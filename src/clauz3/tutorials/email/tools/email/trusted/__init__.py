"""Mock email: two simulated effects (send, read the inbox) and four contracts about sending."""
