"""Antigravity as a provider (04 §11): clauz3's native adapter (``agy_adapter``) around the ``agy`` CLI.

Unrestricted only; available when ``agy`` is on PATH (it has no npm pin).
"""

from __future__ import annotations

from clauz3.sessions.agent.providers.availability import Availability, native_adapter
from clauz3.sessions.agent.providers.protocol import NativeProvider
from clauz3.sessions.agent.providers.table import ROWS


class AntigravityProvider(NativeProvider):
    row = ROWS["agy"]
    adapter_module = "clauz3.sessions.agent.providers.agy_adapter"

    def availability(self, path: str | None = None) -> Availability:
        return native_adapter(self.row, path, self.adapter_module)
