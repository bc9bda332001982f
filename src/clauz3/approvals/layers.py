"""Layer authorisation (03 §8): frozen, resolved root lists compared as ordered lists."""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass

from clauz3.approvals._paths import canonical_project


def _resolve(paths: Iterable[str]) -> tuple[str, ...]:
    return tuple(os.path.realpath(p) for p in paths)


@dataclass(frozen=True)
class AuthorisedLayer:
    project: str
    trusted_roots: tuple[str, ...]
    import_roots: tuple[str, ...]

    @classmethod
    def resolve(cls, project: str | os.PathLike[str], trusted_roots: Iterable[str],
                import_roots: Iterable[str]) -> AuthorisedLayer:
        """Resolve symlinks once, at authorisation time (LAY-1); later retargeting changes nothing."""
        return cls(canonical_project(project), _resolve(trusted_roots), _resolve(import_roots))

    def admits(self, trusted_roots: Iterable[str], import_roots: Iterable[str]) -> bool:
        """LAY-2: equal as ordered lists after resolution; extra, missing, descendant or reordered fail."""
        return _resolve(trusted_roots) == self.trusted_roots and _resolve(import_roots) == self.import_roots
