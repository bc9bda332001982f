"""The one error base of the ``sessions`` layer (below :class:`clauz3.errors.Clauz3Error`)."""

from __future__ import annotations

from clauz3.base.errors import Clauz3Error


class SessionError(Clauz3Error):
    """The session host: launch, agents, store, conversations, web and terminal (02, 04)."""
