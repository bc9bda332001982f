"""Public face of ``clauz3.fluent``: fluents, keyed state cells that effects update (01 FLU-1, FLU-2).

The code lives in :mod:`clauz3.vocabulary.fluent`. This module stays because trusted layers, agent
programs and the spec name ``clauz3.fluent`` (``from clauz3.fluent import …``), and the checker reads a
layer's source by these public spellings. Nothing inside ``src/clauz3`` but the libraries under
``stdlib/`` and ``tutorials/`` may import through it (import-linter contract ``public-faces``).
"""

from __future__ import annotations

from clauz3.vocabulary.fluent import (
    FLUENTS,
    FluentDecl,
    FluentFinalAllSpec,
    FluentFinalSpec,
    FluentSet,
    effect,
    fluent,
)

__all__ = [
    "FLUENTS",
    "FluentDecl",
    "FluentFinalAllSpec",
    "FluentFinalSpec",
    "FluentSet",
    "effect",
    "fluent",
]
