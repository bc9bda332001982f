"""TL-4 confinement: while a layer loads, every module imported from an import root must come
from a selected trusted root (or be an allowed namespace ``__init__.py``).

A meta-path finder placed first on ``sys.meta_path`` asks the other finders for the spec, then
checks where the module file lies. Standard-library and site-packages modules (and clauz3
itself) are always allowed, even when a virtual environment lives inside the project.
"""

from __future__ import annotations

import os
import sys
import sysconfig
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType
from typing import Any

from clauz3.language.errors import LanguageError


def _real(path: str | Path) -> str:
    return os.path.realpath(path)


def _under(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def allowed_prefixes() -> list[str]:
    """Directories whose modules are never confined (stdlib, site-packages, clauz3 itself)."""
    out: set[str] = set()
    for key in ("stdlib", "platstdlib", "purelib", "platlib"):
        value = sysconfig.get_paths().get(key)
        if value:
            out.add(_real(value))
    try:
        import site

        out.update(_real(p) for p in site.getsitepackages())
        out.add(_real(site.getusersitepackages()))
    except (AttributeError, ImportError):
        pass
    for entry in sys.path:
        if entry and ("site-packages" in entry or "dist-packages" in entry):
            out.add(_real(entry))
    import clauz3

    out.add(_real(Path(clauz3.__file__).parent))
    return sorted(out)


class Violation:
    __slots__ = ("importer", "module", "path", "why")

    def __init__(self, importer: str, module: str, path: str, why: str = "") -> None:
        self.importer = importer
        self.module = module
        self.path = path
        self.why = why or "which lies in an import root but outside the selected trusted roots"

    def message(self) -> str:
        return f"{self.importer} imports {self.module} from {self.path}, {self.why}"


class ConfinementError(LanguageError, ImportError):
    """Raised at the offending import; also recorded, so catching it does not hide the violation."""


class ConfinementFinder:
    def __init__(
        self, import_roots: Sequence[Path], trusted_roots: Sequence[Path], allowed_files: Sequence[Path]
    ) -> None:
        self.import_roots = [_real(p) for p in import_roots]
        self.trusted_roots = [_real(p) for p in trusted_roots]
        self.allowed_files = {_real(p) for p in allowed_files}
        self.prefixes = allowed_prefixes()
        self.violations: list[Violation] = []

    def find_spec(self, fullname: str, path: Any, target: ModuleType | None = None) -> ModuleSpec | None:
        spec = None
        for finder in sys.meta_path:
            if finder is self:
                continue
            find = getattr(finder, "find_spec", None)
            if find is None:
                continue
            spec = find(fullname, path, target)
            if spec is not None:
                break
        if spec is None:
            return None
        origin = spec.origin if spec.has_location else None
        if origin:
            self._check(fullname, origin)
        return spec

    def invalidate_caches(self) -> None:
        return None

    def _check(self, fullname: str, origin: str) -> None:
        real = _real(origin)
        if any(_under(real, p) for p in self.prefixes):
            return
        if not any(_under(real, r) for r in self.import_roots):
            return
        if not real.endswith(".py"):
            # Python imports an extension module (x.cpython-3XX-….so) or sourceless bytecode before or
            # instead of x.py: code that the checker, the card and the person never read. Refused before
            # the loader runs it (an extension's init is native code).
            violation = Violation(_importer(), fullname, origin,
                                  "which is not Python source: only the .py files the checker read may load")
            self.violations.append(violation)
            raise ConfinementError(violation.message())
        if any(_under(real, r) for r in self.trusted_roots) or real in self.allowed_files:
            return
        violation = Violation(_importer(), fullname, origin)
        self.violations.append(violation)
        raise ConfinementError(violation.message())

    def __enter__(self) -> ConfinementFinder:
        sys.meta_path.insert(0, self)
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            sys.meta_path.remove(self)
        except ValueError:
            pass


def _importer() -> str:
    """Name of the module whose code runs the import (skipping importlib and this module)."""
    frame = sys._getframe(2)
    here = __file__
    while frame is not None:
        filename = frame.f_code.co_filename
        if not (filename.startswith("<frozen importlib") or filename == here or "importlib" in filename):
            return str(frame.f_globals.get("__name__", "?"))
        frame = frame.f_back  # type: ignore[assignment]  # f_back is None only past the outermost frame, which the loop's test ends on
    return "?"
