"""Mock database-and-email library: a user table and an email sender (simulated)."""
