"""Mock bank library: balances and withdrawals (simulated)."""
