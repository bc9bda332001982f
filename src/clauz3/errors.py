"""Public face of ``clauz3.errors``: the ``Clauz3Error`` root and the run-time contract errors (01 EFF-3).

The code lives in :mod:`clauz3.base.errors`. This module stays because trusted layers and their
tests catch ``clauz3.errors.PreconditionError`` (``from clauz3.errors import …``). Nothing inside
``src/clauz3`` but the libraries under ``stdlib/`` and ``tutorials/`` may import through it
(import-linter contract ``public-faces``).
"""

from __future__ import annotations

from clauz3.base.errors import (
    Clauz3Error,
    ContractError,
    PostconditionError,
    PreconditionError,
)

__all__ = ["Clauz3Error", "ContractError", "PostconditionError", "PreconditionError"]
