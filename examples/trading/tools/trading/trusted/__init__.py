"""Mock trading library: approvals and sell orders (simulated)."""
