"""Executes approved programs on the checked-program IR, calling the real trusted functions (01 §5)."""

from clauz3.interp.api import OUTCOMES, ExecutionResult, IRHashMismatch, execute

__all__ = ["OUTCOMES", "ExecutionResult", "IRHashMismatch", "execute"]
