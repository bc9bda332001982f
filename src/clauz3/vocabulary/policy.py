"""Coverage policies of a domain (01 §2.8 COV-1).

``tools/<d>/trusted/policy.py`` may define ``POLICY = domain_policy(...)`` (or a list/tuple of
them, at most 32). Names are checked against the layer when it loads.
"""

from __future__ import annotations

import sys
from typing import Any

__all__ = ["MAX_POLICIES", "DomainPolicy", "domain_policy"]

MAX_POLICIES = 32


class DomainPolicy:
    __slots__ = ("file", "label", "line", "module", "recommended", "required", "when_used")

    def __init__(
        self,
        when_used: tuple[str, ...],
        recommended: tuple[str, ...],
        required: tuple[str, ...],
        label: str | None,
        module: str,
        file: str,
        line: int,
    ) -> None:
        self.when_used = when_used
        self.recommended = recommended
        self.required = required
        self.label = label
        self.module = module
        self.file = file
        self.line = line

    def __repr__(self) -> str:
        return (
            f"domain_policy(when_used={list(self.when_used)!r}, recommended={list(self.recommended)!r}, "
            f"required={list(self.required)!r}, label={self.label!r})"
        )


def _names(value: Any, what: str, *, allow_single: bool) -> tuple[str, ...]:
    if allow_single and isinstance(value, str):
        value = [value]
    if isinstance(value, str) or not isinstance(value, (list, tuple)):
        raise TypeError(f"domain_policy {what} must be a list of names, got {value!r}")
    for v in value:
        if not isinstance(v, str) or not v:
            raise TypeError(f"domain_policy {what} holds a non-name {v!r}")
    return tuple(value)


def domain_policy(
    *, when_used: str | list[str] | tuple[str, ...], recommended: Any = (), required: Any = (), label: str | None = None
) -> DomainPolicy:
    """Declare when a domain counts as used and which of its contracts are recommended/required."""
    used = _names(when_used, "when_used", allow_single=True)
    if not used:
        raise TypeError("domain_policy when_used needs at least one effect name")
    if label is not None and not isinstance(label, str):
        raise TypeError(f"domain_policy label must be a str, got {label!r}")
    frame = sys._getframe(1)
    return DomainPolicy(
        used,
        _names(recommended, "recommended", allow_single=False),
        _names(required, "required", allow_single=False),
        label,
        str(frame.f_globals.get("__name__", "?")),
        frame.f_code.co_filename,
        frame.f_lineno,
    )
