"""``Clauz3Error``, the root of every error clauz3 raises, and the exceptions raised by the run-time
condition checks of trusted functions (01 EFF-3).

Each layer has one base below the root (``LanguageError``, ``ProverError``, ``InterpError``,
``LayersError``, ``ApprovalError``, ``RunError``, ``StorageError``, ``BridgeError``, ``SessionError``,
each in its package's ``errors.py``); the bases carry no attributes, so what a class says (its
message, its ``code``) is its own. Only the two ``BaseException`` timers that must escape
``except Exception`` stand outside it.
"""

from __future__ import annotations


class Clauz3Error(Exception):
    """Root of every clauz3 error (catch it to catch anything clauz3 raised on purpose)."""


class ContractError(Clauz3Error):
    """Base of every run-time contract failure raised by clauz3's decorators."""


class PreconditionError(ContractError):
    """A ``requires`` (or ``deal.pre``) predicate was false before the body ran."""


class PostconditionError(ContractError):
    """An ``ensures`` (or ``deal.post`` / ``deal.ensure``) predicate was false after the body ran."""
