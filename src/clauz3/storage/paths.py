"""Where clauz3 keeps its data and cache (05 DATA-1, §2.4): one rule, used by every layer."""

from __future__ import annotations

import os
from pathlib import Path


class RelativeHomeError(ValueError):
    """``CLAUZ3_HOME`` is set to a relative path (callers turn it into their own error shape)."""

    def __init__(self) -> None:
        super().__init__("`CLAUZ3_HOME` must be an absolute path")


def data_dir(*, strict: bool = True) -> Path:
    """``$CLAUZ3_HOME``, else ``$XDG_DATA_HOME/clauz3``, else ``~/.local/share/clauz3``.

    A relative ``CLAUZ3_HOME`` raises :class:`RelativeHomeError` (``strict``) or is ignored; a
    relative ``XDG_DATA_HOME`` is always ignored.
    """
    home = os.environ.get("CLAUZ3_HOME") or ""
    if home:
        if os.path.isabs(home):
            return Path(home)
        if strict:
            raise RelativeHomeError()
    xdg = os.environ.get("XDG_DATA_HOME") or ""
    if xdg and os.path.isabs(xdg):
        return Path(xdg) / "clauz3"
    return Path.home() / ".local" / "share" / "clauz3"


def cache_dir() -> Path:
    """``$CLAUZ3_CACHE``, else ``$XDG_CACHE_HOME/clauz3``, else ``~/.cache/clauz3`` (relative values ignored)."""
    value = os.environ.get("CLAUZ3_CACHE") or ""
    if value and os.path.isabs(value):
        return Path(value)
    xdg = os.environ.get("XDG_CACHE_HOME") or ""
    if xdg and os.path.isabs(xdg):
        return Path(xdg) / "clauz3"
    return Path.home() / ".cache" / "clauz3"
