"""Engine identity for the proof cache key (01 CACHE-1)."""

from __future__ import annotations

import sys

PROVER_SEMANTICS_ID = "clauz3-prover-1"


def engine_id() -> str:
    """``<clauz3 version>+<semantics id>+z3-<version>+py<X.Y>``; changes whenever verdicts could."""
    from importlib.metadata import PackageNotFoundError, version

    from clauz3._version import __version__

    try:
        z3_version = version("z3-solver")
    except PackageNotFoundError:  # pragma: no cover - z3 is a hard dependency
        z3_version = "unknown"
    py = f"{sys.version_info.major}.{sys.version_info.minor}"
    return f"{__version__}+{PROVER_SEMANTICS_ID}+z3-{z3_version}+py{py}"
