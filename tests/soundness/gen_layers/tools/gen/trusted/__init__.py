"""Generative test layer: simulated effects whose calls the differential check records."""
