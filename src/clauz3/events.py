"""Public face of ``clauz3.events``: events that effects perform (01 §2.7).

The code lives in :mod:`clauz3.vocabulary.events`. This module stays because trusted layers, agent
programs and the spec name ``clauz3.events`` (``from clauz3.events import …``), and the checker reads a
layer's source by these public spellings. Nothing inside ``src/clauz3`` but the libraries under
``stdlib/`` and ``tutorials/`` may import through it (import-linter contract ``public-faces``).
"""

from __future__ import annotations

from clauz3.vocabulary.events import (
    RESERVED_FIELDS,
    Event,
    event_fields,
    performs,
)

__all__ = [
    "RESERVED_FIELDS",
    "Event",
    "event_fields",
    "performs",
]
