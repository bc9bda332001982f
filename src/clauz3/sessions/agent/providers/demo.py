"""The Demo agent as a provider (02 §7): ``clauz3.agents.demo``, scripted, no model, both modes.

Always available (it runs on the host's interpreter), names its clauz3 calls in ``_meta.clauz3.tool``
like the native adapters, and is the one agent the service may start before it is asked (issue 13).
"""

from __future__ import annotations

from clauz3.sessions.agent.acp_permissions import NamedInClauz3Meta, PermissionRule
from clauz3.sessions.agent.providers.availability import Availability, python_adapter_argv
from clauz3.sessions.agent.providers.protocol import BaseProvider
from clauz3.sessions.agent.providers.table import ROWS

ADAPTER_MODULE = "clauz3.agents.demo"


class DemoProvider(BaseProvider):
    row = ROWS["demo"]
    permissions: PermissionRule = NamedInClauz3Meta()
    prespawn = True  # its launch depends on nothing the service decides later (instructions, private dirs)

    def availability(self, path: str | None = None) -> Availability:
        return Availability(True, argv=python_adapter_argv(ADAPTER_MODULE))
