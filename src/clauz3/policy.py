"""Public face of ``clauz3.policy``: coverage policies of a domain (01 §2.8).

The code lives in :mod:`clauz3.vocabulary.policy`. This module stays because trusted layers, agent
programs and the spec name ``clauz3.policy`` (``from clauz3.policy import …``), and the checker reads a
layer's source by these public spellings. Nothing inside ``src/clauz3`` but the libraries under
``stdlib/`` and ``tutorials/`` may import through it (import-linter contract ``public-faces``).
"""

from __future__ import annotations

from clauz3.vocabulary.policy import (
    MAX_POLICIES,
    DomainPolicy,
    domain_policy,
)

__all__ = [
    "MAX_POLICIES",
    "DomainPolicy",
    "domain_policy",
]
