"""Red-team test layer: simulated effects whose calls the red-team check records."""
