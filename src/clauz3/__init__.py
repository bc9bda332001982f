"""clauz3: the public vocabulary of trusted layers and agent programs (01 §2.2)."""

from clauz3._version import __version__

__all__ = ["__version__"]
