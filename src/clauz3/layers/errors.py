"""The one error base of the ``layers`` layer (below :class:`clauz3.errors.Clauz3Error`)."""

from __future__ import annotations

from clauz3.base.errors import Clauz3Error


class LayersError(Clauz3Error):
    """Trusted layers seen from outside: discovery, manifests, scans, lint, install (05)."""
