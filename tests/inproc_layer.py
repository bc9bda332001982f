"""Load a test layer in this (xdist worker) process, whichever layer an earlier test file loaded.

TL-6 keeps one layer per process; a worker runs many files, and a file whose tests are over no longer
needs its layer. So forget it the way a forked child does, and warn with the roots held (a tmp path carries
the earlier test's name) in case a test that still needs its layer should move into a subprocess.
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any


def load_test_layer(trusted: list[Path], imports: list[Path]) -> Any:
    from clauz3.language import layer as layer_module

    held = layer_module._State.key
    if held is not None and held != (tuple(map(str, trusted)), tuple(map(str, imports))):
        warnings.warn(f"this worker already held the layer {held!r}; loading {trusted[0]}", stacklevel=2)
        layer_module.reset_for_fork()
    return layer_module.load_layer(trusted, imports)
