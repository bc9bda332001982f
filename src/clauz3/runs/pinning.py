"""The worker's private copy of its layer (issue 11 §2): load exactly the bytes that were hashed.

:func:`pin_layer` reads every file of the layer once, without following links
(:func:`clauz3.approvals.layers.layer_content`), writes those bytes into a fresh 0700 directory and
returns the copy's roots with the content hash. The worker proves and executes against the copy, so
a library edited, or an import root retargeted, after the hash was taken changes nothing that runs;
the receipt then binds the approval to that hash (the authority hashed its own view of the layer).

A warm prover pins once at its start (:data:`PRELOADED`); the workers it forks reuse that copy.
Each copy lives in a new directory, so the worker hands :attr:`PinnedLayer.directory` to the prover
(``ProofRequest.layer_directory``): the proof cache keys the roots relative to it and a cold worker
reuses the verdict another copy of the same bytes got (issue 13).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from clauz3.approvals.layers import LayerContentError, layer_content
from clauz3.runs.errors import RunError


class PinError(RunError):
    """The layer cannot be pinned; the run is refused before anything is proved."""

    code = "pin_failed"


@dataclass(frozen=True)
class PinnedLayer:
    original_trusted: tuple[str, ...]  # the roots as configured (what the request names)
    original_imports: tuple[str, ...]
    trusted_roots: tuple[str, ...]  # the private copy's roots (what is loaded)
    import_roots: tuple[str, ...]
    sha256: str
    directory: str


# Set in a warm prover process once it pinned and loaded its layer; its forked workers inherit it.
PRELOADED: PinnedLayer | None = None


def _write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    finally:
        os.close(fd)


def pin_layer(trusted_roots: Sequence[str], import_roots: Sequence[str], into: Path | None = None) -> PinnedLayer:
    """Copy the layer into ``into`` (a new private directory under it) and return the pinned roots."""
    try:
        content = layer_content(trusted_roots, import_roots)
    except (LayerContentError, OSError) as exc:
        raise PinError(f"the trusted libraries cannot be bound by content: {exc}") from None
    if into is not None:
        into.mkdir(parents=True, exist_ok=True, mode=0o700)
    directory = Path(tempfile.mkdtemp(prefix="layer-", dir=str(into) if into is not None else None))
    os.chmod(directory, 0o700)
    bases = [directory / str(i) for i in range(len(content.import_roots))]
    for base in bases:
        base.mkdir(mode=0o700)
    for item in content.files:
        _write(bases[item.index] / item.relative, item.data)
    trusted = tuple(str(bases[i] / rel) for i, rel in content.placed)
    for root in trusted:
        Path(root).mkdir(parents=True, exist_ok=True, mode=0o700)
    return PinnedLayer(tuple(str(p) for p in trusted_roots), tuple(str(p) for p in import_roots), trusted,
                       tuple(str(b) for b in bases), content.sha256, str(directory))


def pinned_for(trusted_roots: Sequence[str], import_roots: Sequence[str], scratch: Path) -> PinnedLayer:
    """The warm process's copy when it holds these roots, else a fresh copy under ``scratch``."""
    pre = PRELOADED
    if pre is not None and _same(pre.original_trusted, trusted_roots) and _same(pre.original_imports, import_roots):
        return pre
    return pin_layer(trusted_roots, import_roots, scratch)


def _same(a: Sequence[str], b: Sequence[str]) -> bool:
    return [os.path.realpath(p) for p in a] == [os.path.realpath(str(p)) for p in b]


__all__ = ["PRELOADED", "PinError", "PinnedLayer", "pin_layer", "pinned_for"]
