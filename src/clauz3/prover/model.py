"""The shape of a proof model of a builtin or method (``builtins.MODELS``).

Each model takes the executor, the call node and the evaluated arguments. ``exact`` models are
precise; ``abstract`` ones return fresh values with the listed facts only (sound, and marked in
counterexamples).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeAlias

from clauz3.language import ir
from clauz3.prover.state import SymbolicExecutor

# The call a model answers: a builtin's (``len(x)``) or a method's (``s.find(x)``).
CallNode: TypeAlias = ir.BuiltinCall | ir.MethodCall
Model = Callable[[SymbolicExecutor, CallNode, list[Any], dict[str, Any]], Any]


@dataclass(frozen=True)
class ModelEntry:
    fn: Model
    precision: str  # "exact" | "abstract" | "none"


def src_of(node: Any) -> str:
    return getattr(node, "source", "") or ""


