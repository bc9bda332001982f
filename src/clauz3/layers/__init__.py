"""Trusted layers seen from outside: discovery, manifests, static scans and lint (never imports layer code)."""
