"""Mock email library: one simulated effect and the contracts that describe it."""
