"""Mock home-automation library: thermostat, door locks and groceries (simulated)."""
