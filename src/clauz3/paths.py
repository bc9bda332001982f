"""Public face of ``clauz3.paths``: validated path values and the path predicates (01 ROW-3, PUB-2).

The code lives in :mod:`clauz3.vocabulary.paths`. This module stays because trusted layers, agent
programs and the spec name ``clauz3.paths`` (``from clauz3.paths import …``), and the checker reads a
layer's source by these public spellings. Nothing inside ``src/clauz3`` but the libraries under
``stdlib/`` and ``tutorials/`` may import through it (import-linter contract ``public-faces``).
"""

from __future__ import annotations

from clauz3.vocabulary.paths import (
    DirectoryPath,
    FilePath,
    canonical_path,
    has_no_parent_segments,
    is_plain_path,
    is_single_path_component,
    path_error,
    url_has_no_parent_segments,
)

__all__ = [
    "DirectoryPath",
    "FilePath",
    "canonical_path",
    "has_no_parent_segments",
    "is_plain_path",
    "is_single_path_component",
    "path_error",
    "url_has_no_parent_segments",
]
