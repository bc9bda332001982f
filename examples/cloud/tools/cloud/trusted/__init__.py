"""Mock cloud library: instances and buckets (simulated)."""
