"""Mock HTTP library: GET and POST (simulated)."""
