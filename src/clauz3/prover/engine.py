"""Engine identity for the proof cache key (01 CACHE-1)."""

from __future__ import annotations

import sys

PROVER_SEMANTICS_ID = "clauz3-prover-4"  # 4: effect facts carry in-run flows (issue 20)


def engine_id() -> str:
    """``<clauz3 version>+<semantics id>+z3-<version>+py<X.Y>``; changes whenever verdicts could."""
    from clauz3._version import __version__

    z3_version = _z3_version()
    py = f"{sys.version_info.major}.{sys.version_info.minor}"
    return f"{__version__}+{PROVER_SEMANTICS_ID}+z3-{z3_version}+py{py}"


def _z3_version() -> str:
    """The installed z3-solver version, read from its dist-info name (importlib.metadata costs ~15 ms)."""
    import importlib.util
    from pathlib import Path

    spec = importlib.util.find_spec("z3")
    if spec is not None and spec.origin:
        site = Path(spec.origin).parent.parent
        names = sorted(p.name for p in site.glob("z3_solver-*.dist-info"))
        if len(names) == 1:
            return names[0][len("z3_solver-"):-len(".dist-info")]
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("z3-solver")
    except PackageNotFoundError:  # pragma: no cover - z3 is a hard dependency
        return "unknown"
