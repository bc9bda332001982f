"""The one error base of the ``prover`` layer (below :class:`clauz3.errors.Clauz3Error`)."""

from __future__ import annotations

from clauz3.base.errors import Clauz3Error


class ProverError(Clauz3Error):
    """The symbolic executor, obligations, entailment and the proof engine (01 §5)."""
