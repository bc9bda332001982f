"""The env effect: read one environment variable (never a CLAUZ3_ one)."""

import os
import re

import clauz3

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,127}")


@clauz3.trusted
@clauz3.requires(lambda name: len(name) >= 1 and len(name) <= 128, message="name must be 1 to 128 characters long")
@clauz3.requires(lambda name: not name.startswith("CLAUZ3_"), message="name must not start with CLAUZ3_")
def read_env(name: str) -> str:
    """Return the value of the environment variable name, or "" when it is unset."""
    if _NAME.fullmatch(name) is None:
        raise ValueError(f"name {name!r} is not a variable name ([A-Za-z_][A-Za-z0-9_]*, at most 128 characters)")
    if name.startswith("CLAUZ3_"):
        raise ValueError(f"name {name!r}: CLAUZ3_ variables are clauz3's own settings and cannot be read")
    return os.environ.get(name, "")
