"""The one error base of the ``bridge`` layer (below :class:`clauz3.errors.Clauz3Error`)."""

from __future__ import annotations

from clauz3.base.errors import Clauz3Error


class BridgeError(Clauz3Error):
    """The MCP bridge between an agent and clauz3 (04 §3)."""
