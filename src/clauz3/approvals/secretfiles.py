"""The secret-file helpers now live in :mod:`clauz3.storage.secretfiles` (issue 15: below every package
that keeps a secret, so `stdlib/` need not import the authority). This name stays until its users move.
"""

from __future__ import annotations

from clauz3.storage.secretfiles import (
    MAX_SECRET_FILE,
    InsecureFileError,
    ensure_private_dir,
    read_secret,
    write_secret,
)

__all__ = ["MAX_SECRET_FILE", "InsecureFileError", "ensure_private_dir", "read_secret", "write_secret"]
