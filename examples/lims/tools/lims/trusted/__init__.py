"""Mock laboratory library: pipetting, protocol runs and oligo orders (simulated)."""
