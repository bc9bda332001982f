"""The one error base of the ``language`` layer (below :class:`clauz3.errors.Clauz3Error`)."""

from __future__ import annotations

from clauz3.base.errors import Clauz3Error


class LanguageError(Clauz3Error):
    """The checker, the layer loader and the trusted-source reader (01 §3, TL-*, MOCK-2)."""
