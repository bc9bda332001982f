"""Pi as a provider (04 §10): clauz3's native adapter (``pi_adapter``) around the pinned Pi SDK.

Restricted only. Its availability is the strictest (the exact pin, ``dist/index.js``, Node ≥ 22.19); the
adapter's own setup (environment allowlist, auth.json check, session config) is :mod:`.pi_setup`.
"""

from __future__ import annotations

from clauz3.sessions.agent.providers.availability import Availability, pi_adapter
from clauz3.sessions.agent.providers.protocol import NativeProvider
from clauz3.sessions.agent.providers.table import ROWS


class PiProvider(NativeProvider):
    row = ROWS["pi"]
    adapter_module = "clauz3.sessions.agent.providers.pi_adapter"

    def availability(self, path: str | None = None) -> Availability:
        return pi_adapter(self.row, path, self.adapter_module)
