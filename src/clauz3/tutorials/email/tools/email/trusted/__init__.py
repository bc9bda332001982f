"""Mock email: one simulated effect and three contracts about it."""
