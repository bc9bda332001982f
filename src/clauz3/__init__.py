"""clauz3: the public vocabulary of trusted layers and agent programs (01 §2.2).

Importing this package stays cheap (01 CORE-3): no z3, checker, web, ACP, MCP, cryptography or
YAML module, and the less common submodules load on first attribute access.
"""

from __future__ import annotations

from clauz3._version import __version__
from clauz3.base.errors import ContractError, PostconditionError, PreconditionError
from clauz3.vocabulary.contracts import effect
from clauz3.vocabulary.decorators import (
    contract,
    ensures,
    guarantee,
    mock,
    protected,
    reads_data,
    requires,
    solver,
    trusted,
)
from clauz3.vocabulary.meta import ContractSpec

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "ColumnRef",
    "ContractError",
    "ContractSpec",
    "DirectoryPath",
    "FilePath",
    "PostconditionError",
    "PreconditionError",
    "Row",
    "__version__",
    "contract",
    "effect",
    "ensures",
    "guarantee",
    "mock",
    "protected",
    "reads_data",
    "requires",
    "solver",
    "spec",
    "trusted",
]

_LAZY = {
    "Row": ("clauz3.vocabulary.rows", "Row"),
    "ColumnRef": ("clauz3.vocabulary.rows", "ColumnRef"),
    "FilePath": ("clauz3.vocabulary.paths", "FilePath"),
    "DirectoryPath": ("clauz3.vocabulary.paths", "DirectoryPath"),
}
# The public faces (thin modules re-exporting from vocabulary/ and base/, see each one's docstring).
_SUBMODULES = ("spec", "events", "fluent", "policy", "paths", "errors")


def __getattr__(name: str) -> Any:
    import importlib

    if name in _LAZY:
        module, attr = _LAZY[name]
        value = getattr(importlib.import_module(module), attr)
        globals()[name] = value
        return value
    if name in _SUBMODULES:
        return importlib.import_module(f"clauz3.{name}")
    raise AttributeError(f"module 'clauz3' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY) | set(_SUBMODULES))
