"""Where a trusted root sits (01 §2.1 TL-1): ``<import root>/tools/<d>/trusted`` or
``<import root>/tools/<o>/<d>/trusted``.

Below both ``layer.py`` (loading) and ``_layer_hash.py`` (fingerprints), which both need it.
"""

from __future__ import annotations

import keyword
import os
from collections.abc import Sequence
from pathlib import Path

from clauz3.language.errors import LanguageError


class TrustedRootError(LanguageError, ValueError):
    """TL-1: a ``--trusted-root`` that is not ``<import root>/tools/<domain>/trusted``."""


def validate_trusted_root(path: str | Path) -> tuple[Path, str]:
    """TL-1: ``(import root, domain)`` of ``<import root>/tools/<d>/trusted`` or ``…/tools/<o>/<d>/trusted``."""
    p = Path(os.path.abspath(path))
    parts = p.parts

    def ok(names: Sequence[str]) -> bool:
        return all(n.isidentifier() and not keyword.iskeyword(n) for n in names)

    if len(parts) >= 4 and parts[-1] == "trusted" and parts[-3] == "tools" and ok(parts[-2:-1]):
        return Path(*parts[:-3]), parts[-2]
    if len(parts) >= 5 and parts[-1] == "trusted" and parts[-4] == "tools" and ok(parts[-3:-1]):
        return Path(*parts[:-4]), f"{parts[-3]}/{parts[-2]}"
    raise TrustedRootError(f"--trusted-root {path}: not <import root>/tools/<domain>/trusted")
