"""The interpreter's error base and its internal control-flow exceptions; api.py turns them into run outcomes."""

from __future__ import annotations

from typing import Any

from clauz3.base.errors import Clauz3Error


class InterpError(Clauz3Error):
    """The one error base of the interpreter and its runtime monitor."""


class RunStop(InterpError):
    """Base: the run ends now. ``message`` is the user-facing text (with file:line where known)."""

    outcome = "runtime_error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class ProgramError(RunStop):
    """A Python exception raised by program code (or by a trusted function): ``runtime_error``."""

    def __init__(self, message: str, exc: BaseException | None = None) -> None:
        super().__init__(message)
        self.exc = exc


class StepBudgetExceeded(RunStop):
    pass


class TrustedContractViolation(RunStop):
    """The effect happened but broke its return annotation or its postconditions (INT-4)."""

    outcome = "trusted_contract_violation"


class SoundnessViolation(RunStop):
    """Something the proof said holds did not: a precondition, a guarantee, a solver model (MON-3).

    ``kind`` is ``guarantee``, ``precondition``, ``postcondition`` or ``solver_model``;
    ``guarantee`` the violated ``ir.Guarantee`` when kind is ``guarantee``.
    """

    outcome = "soundness_violation"

    def __init__(self, message: str, kind: str, guarantee: Any = None, detail: str = "") -> None:
        super().__init__(message)
        self.kind = kind
        self.guarantee = guarantee
        self.detail = detail


class EffectUnavailable(RunStop):
    """The program calls an effect the layer mapping does not provide."""


class _Flow(InterpError):
    """Break / continue / return signalling inside statement execution."""


class BreakSignal(_Flow):
    pass


class ContinueSignal(_Flow):
    pass


class ReturnSignal(_Flow):
    def __init__(self, value: Any) -> None:
        super().__init__()
        self.value = value
