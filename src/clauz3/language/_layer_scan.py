"""Static checks of a layer's files before anything is imported (01 TL-2, TL-3, TL-5).

Finds the trusted modules (sorted, real dotted names), applies the size and syntax-node limits,
parses every file once (the ASTs are reused for the EFF-1 decorator check), and checks the
namespace ``__init__.py`` files between an import root and its trusted roots.
"""

from __future__ import annotations

import ast
import keyword
import os
from dataclasses import dataclass
from pathlib import Path

from clauz3.base.astparse import parse_ast
from clauz3.language.errors import LanguageError
from clauz3.language.trusted_source import module_level_statements

MAX_MODULES = 256
MAX_MODULE_BYTES = 1024 * 1024
MAX_NODES = 500_000


class ScanError(LanguageError):
    """A static layer problem: ``code`` (layer-error / limit-exceeded), file, line."""

    def __init__(self, code: str, message: str, file: Path | str, line: int = 1, col: int = 1, hint: str | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.file = str(file)
        self.line = line
        self.col = col
        self.hint = hint


@dataclass
class TrustedFile:
    module: str  # real dotted name
    path: Path
    source: str
    tree: ast.Module


def _identifier(part: str) -> bool:
    return part.isidentifier() and not keyword.iskeyword(part)


def module_files(root: Path, package: str) -> list[tuple[str, Path]]:
    """``(dotted name, path)`` of every ``*.py`` below ``root``, in sorted path order."""
    found: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for name in filenames:
            if name.endswith(".py"):
                found.append(Path(dirpath) / name)
    found.sort(key=lambda p: p.relative_to(root).as_posix())
    out: list[tuple[str, Path]] = []
    for path in found:
        parts = list(path.relative_to(root).parts)
        stem = parts[-1][:-3]
        dirs = parts[:-1]
        for part in [*dirs, stem]:
            if not _identifier(part):
                raise ScanError(
                    "layer-error",
                    f"{path.relative_to(root).as_posix()} cannot be imported under a real dotted name "
                    f"({part!r} is not an identifier)",
                    path,
                )
        names = [package, *dirs] + ([] if stem == "__init__" else [stem])
        out.append((".".join(names), path))
    return out


def read_files(entries: list[tuple[str, Path]]) -> list[TrustedFile]:
    """Read and parse every file under the TL-5 limits."""
    if len(entries) > MAX_MODULES:
        raise ScanError(
            "limit-exceeded", f"the layer has {len(entries)} modules, more than the limit of {MAX_MODULES}", entries[0][1]
        )
    out: list[TrustedFile] = []
    nodes = 0
    for module, path in entries:
        if path.is_symlink():
            raise ScanError("layer-error", f"{module} is a symbolic link ({path})", path)
        size = path.stat().st_size
        if size > MAX_MODULE_BYTES:
            raise ScanError(
                "limit-exceeded", f"{module} is {size} bytes, more than the limit of {MAX_MODULE_BYTES}", path
            )
        try:
            source = path.read_bytes().decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise ScanError("layer-error", f"{module} is not UTF-8 ({exc.reason})", path) from None
        try:
            tree = parse_ast(source, filename=str(path))
        except SyntaxError as exc:
            raise ScanError(
                "layer-error", f"{module} does not parse: {exc.msg}", path, exc.lineno or 1, exc.offset or 1
            ) from None
        nodes += sum(1 for _ in ast.walk(tree))
        if nodes > MAX_NODES:
            raise ScanError(
                "limit-exceeded",
                f"the layer has more than {MAX_NODES} syntax nodes (over the limit at {module})",
                path,
            )
        out.append(TrustedFile(module, path, source, tree))
    return out


def check_namespace_init(path: Path) -> None:
    """TL-3: a namespace ``__init__.py`` holds only a docstring and ``pass``."""
    if not os.path.lexists(path):
        return
    if path.is_symlink() or not path.is_file():
        raise ScanError("layer-error", f"{path} must be a regular file", path)
    try:
        tree = parse_ast(path.read_bytes().decode("utf-8-sig"), filename=str(path))
    except (SyntaxError, UnicodeDecodeError):
        raise ScanError("layer-error", f"{path} must hold only a docstring and `pass`", path) from None
    for i, stmt in enumerate(tree.body):
        if isinstance(stmt, ast.Pass):
            continue
        if i == 0 and isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(
            stmt.value.value, str
        ):
            continue
        raise ScanError(
            "layer-error",
            f"{path.name} between the import root and a trusted root must hold only a docstring and `pass`",
            path,
            stmt.lineno,
            stmt.col_offset + 1,
        )


def module_level_defs(tree: ast.Module) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    """Module-level ``def``s, also inside module-level ``if``/``try`` blocks (the one walk of MOCK-2)."""
    return [s for s in module_level_statements(tree.body) if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef)]
