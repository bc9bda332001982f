"""Exceptions raised by the run-time condition checks of trusted functions (01 EFF-3)."""

from __future__ import annotations


class ContractError(Exception):
    """Base of every run-time contract failure raised by clauz3's decorators."""


class PreconditionError(ContractError):
    """A ``requires`` (or ``deal.pre``) predicate was false before the body ran."""


class PostconditionError(ContractError):
    """An ``ensures`` (or ``deal.post`` / ``deal.ensure``) predicate was false after the body ran."""
