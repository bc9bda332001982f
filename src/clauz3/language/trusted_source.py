"""The one source-only reader of trusted layers (05 MOCK-2, MOCK-3): nothing here imports trusted code.

Both the authority's card (``approvals/layerscan``) and the library tools (``layers/scan``: ``clauz3
lint``, ``clauz3 libraries``, the catalogue) read trusted files through this module, so they agree on

- which files a trusted root holds (``*.py`` in sorted path order; symlinked or out-of-root entries
  are errors, :func:`python_files`),
- how a file is read (a regular file, not a symlink, at most :data:`MAX_FILE_BYTES`, UTF-8, parsed;
  parses cached by ``(path, sha256 of the bytes read now)``, :func:`read_source_file`),
- which module-level functions are effects and whether each is ``mock``, ``unmarked`` or ``real``
  (:func:`effect_status`, :func:`stub_body`), and
- a domain's kind (:func:`domain_kind`).
"""

from __future__ import annotations

import ast
import hashlib
import os
import stat
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from clauz3.base.astparse import parse_ast
from clauz3.language.errors import LanguageError

MAX_FILE_BYTES = 1024 * 1024

# Spellings that name the same public object (01 §2.2), folded to one canonical dotted name.
_CANONICAL: dict[str, str] = {
    "clauz3.spec.contract": "clauz3.contract",
    "clauz3.spec.effect": "clauz3.effect",
    "clauz3.paths.FilePath": "clauz3.FilePath",
    "clauz3.paths.DirectoryPath": "clauz3.DirectoryPath",
    "clauz3.spec.ContractSpec": "clauz3.ContractSpec",
    "clauz3.vocabulary.meta.ContractSpec": "clauz3.ContractSpec",
}
# The vocabulary's own modules (issue 23) spelled as the public faces that re-export them, so a layer
# that imports ``clauz3.vocabulary.events`` is read as one that imports ``clauz3.events``.
_FACES: dict[str, str] = {
    "clauz3.vocabulary.contracts": "clauz3.spec",
    "clauz3.vocabulary.events": "clauz3.events",
    "clauz3.vocabulary.fluent": "clauz3.fluent",
    "clauz3.vocabulary.policy": "clauz3.policy",
    "clauz3.vocabulary.paths": "clauz3.paths",
    "clauz3.vocabulary.path_safety": "clauz3.paths",
    "clauz3.vocabulary.decorators": "clauz3",
    "clauz3.vocabulary.rows": "clauz3",
    "clauz3.base.errors": "clauz3.errors",
}


def canonical_name(dotted: str) -> str:
    """``dotted`` spelled as the public object it names (a face's module, then the one public name)."""
    if dotted in _FACES:
        return _FACES[dotted]
    module, _, attr = dotted.rpartition(".")
    if module in _FACES:
        dotted = f"{_FACES[module]}.{attr}"
    return _CANONICAL.get(dotted, dotted)


class SourceError(LanguageError):
    """A trusted file that cannot be read or parsed; ``line``/``col`` locate syntax errors."""

    def __init__(self, path: Path | str, message: str, line: int = 1, col: int = 1) -> None:
        super().__init__(f"{path}:{line}:{col}: {message}")
        self.path = Path(path)
        self.message = message
        self.line = line
        self.col = col


@dataclass(frozen=True)
class SourceFile:
    path: str
    sha256: str
    text: str
    tree: ast.Module


# ------------------------------------------------------------------------------------ files

_cache_lock = threading.Lock()
# Keyed by path and checked against the sha256 of the bytes just read: every read hashes the file
# (issue 11 §2: a same-size edit with its mtime restored must change the digest); only the parse is reused.
_cache: dict[str, SourceFile] = {}


def read_regular(path: Path | str) -> bytes:
    """The bytes of a regular, non-symlinked file of at most :data:`MAX_FILE_BYTES`, read now."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError as exc:
        if os.path.islink(path):
            raise SourceError(path, "symbolic link") from None
        raise SourceError(path, f"cannot read: {exc.strerror or exc}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise SourceError(path, "not a regular file")
        if st.st_size > MAX_FILE_BYTES:
            raise SourceError(path, f"larger than {MAX_FILE_BYTES} bytes")
        data = b"".join(iter(lambda: os.read(fd, 1 << 16), b""))
    except OSError as exc:
        raise SourceError(path, f"cannot read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if len(data) > MAX_FILE_BYTES:
        raise SourceError(path, f"larger than {MAX_FILE_BYTES} bytes")
    return data


def read_source_file(path: Path | str) -> SourceFile:
    """Read, hash, decode and parse one trusted file; raises :class:`SourceError`."""
    key = str(path)
    data = read_regular(path)
    digest = hashlib.sha256(data).hexdigest()
    with _cache_lock:
        hit = _cache.get(key)
    if hit is not None and hit.sha256 == digest:
        return hit
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise SourceError(path, f"not UTF-8 ({exc.reason})") from None
    try:
        tree = parse_ast(text, filename=key)
    except SyntaxError as exc:
        raise SourceError(path, f"cannot parse: {exc.msg}", exc.lineno or 1, exc.offset or 1) from None
    except ValueError as exc:  # NUL bytes
        raise SourceError(path, f"cannot parse: {exc}") from None
    found = SourceFile(key, digest, text, tree)
    with _cache_lock:
        _cache[key] = found
    return found


def python_files(root: Path) -> tuple[list[Path], list[str]]:
    """``*.py`` below a trusted root in sorted path order, and errors for symlinked or out-of-root entries."""
    real_root = root.resolve()
    found: list[Path] = []
    errors: list[str] = []
    for dirpath, dirnames, filenames in os.walk(root):
        here = Path(dirpath)
        kept = []
        for d in sorted(dirnames):
            if d == "__pycache__":
                continue
            if (here / d).is_symlink():
                errors.append(f"{here / d}: symbolic link")
                continue
            kept.append(d)
        dirnames[:] = kept
        found.extend(here / f for f in filenames if f.endswith(".py"))
    paths: list[Path] = []
    for path in sorted(found):
        if path.is_symlink():
            errors.append(f"{path}: symbolic link")
            continue
        try:
            path.resolve().relative_to(real_root)
        except ValueError:
            errors.append(f"{path}: outside the trusted root")
            continue
        paths.append(path)
    return paths, errors


# ------------------------------------------------------------------------------------ names


def module_level_statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Module-level statements in source order, descending into module-level ``if`` and ``try`` blocks (MOCK-2)."""
    for stmt in body:
        yield stmt
        if isinstance(stmt, ast.If):
            yield from module_level_statements(stmt.body)
            yield from module_level_statements(stmt.orelse)
        elif isinstance(stmt, ast.Try | ast.TryStar):
            yield from module_level_statements(stmt.body)
            for handler in stmt.handlers:
                yield from module_level_statements(handler.body)
            yield from module_level_statements(stmt.orelse)
            yield from module_level_statements(stmt.finalbody)


class ImportMap:
    """Maps the local names of one module to the dotted objects they stand for."""

    def __init__(self, tree: ast.Module, module: str, is_package: bool) -> None:
        self.module = module
        self.names: dict[str, str] = {}
        package = module if is_package else module.rpartition(".")[0]
        for stmt in module_level_statements(tree.body):
            if isinstance(stmt, ast.Import):
                for alias in stmt.names:
                    if alias.asname:
                        self.names[alias.asname] = alias.name
                    else:
                        top = alias.name.split(".")[0]
                        self.names[top] = top
            elif isinstance(stmt, ast.ImportFrom):
                base = self.from_base(stmt, package)
                if base is None:
                    continue
                for alias in stmt.names:
                    if alias.name == "*":
                        continue
                    self.names[alias.asname or alias.name] = f"{base}.{alias.name}" if base else alias.name
            elif isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                self.names[stmt.name] = f"{module}.{stmt.name}"

    @staticmethod
    def from_base(stmt: ast.ImportFrom, package: str) -> str | None:
        """The dotted module a ``from … import`` reads from, relative levels resolved against ``package``."""
        if not stmt.level:
            return stmt.module or ""
        parts = package.split(".") if package else []
        up = stmt.level - 1
        if up > len(parts):
            return None
        parts = parts[: len(parts) - up]
        if stmt.module:
            parts.append(stmt.module)
        return ".".join(parts)

    def resolve(self, node: ast.expr) -> str | None:
        """Dotted name of a Name/Attribute chain through this module's imports, canonicalised."""
        if isinstance(node, ast.Name):
            target = self.names.get(node.id)
            return None if target is None else canonical_name(target)
        if isinstance(node, ast.Attribute):
            base = self.resolve(node.value)
            if base is None:
                return None
            dotted = f"{base}.{node.attr}"
            return canonical_name(dotted)
        return None

    def decorator(self, node: ast.expr) -> str | None:
        """The dotted object a decorator names, with or without a call (``@clauz3.mock`` / ``@clauz3.mock()``)."""
        return self.resolve(node.func if isinstance(node, ast.Call) else node)


# ------------------------------------------------------------------------------------ MOCK-2


def is_effect(fn: ast.FunctionDef | ast.AsyncFunctionDef, imports: ImportMap) -> bool:
    """Decorated ``@clauz3.trusted`` (or ``@deal.has(...)`` with an argument, 01 §2.9)."""
    for dec in fn.decorator_list:
        dotted = imports.decorator(dec)
        if dotted == "clauz3.trusted":
            return True
        if dotted == "deal.has" and isinstance(dec, ast.Call) and dec.args:
            return True
    return False


def stub_body(body: list[ast.stmt]) -> bool:
    """MOCK-2: only a docstring, ``pass``, ``...`` and/or ``return <constant>`` (``return`` alone counts).

    "Constant" is one literal token (``ast.Constant``): ``return 1 + 1``, ``return -1``, ``return x``,
    ``return []`` or a ``raise`` make the body real (docs/decisions.md). A string statement counts as the
    docstring only when it comes first.
    """
    for i, stmt in enumerate(body):
        if isinstance(stmt, ast.Pass):
            continue
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
            if stmt.value.value is Ellipsis or (i == 0 and isinstance(stmt.value.value, str)):
                continue
            return False
        if isinstance(stmt, ast.Return) and (stmt.value is None or isinstance(stmt.value, ast.Constant)):
            continue
        return False
    return True


def effect_status(fn: ast.FunctionDef | ast.AsyncFunctionDef, imports: ImportMap) -> str | None:
    """``mock`` (declared ``@clauz3.mock``), ``unmarked`` (a stub body), ``real``; None if not an effect."""
    if not is_effect(fn, imports):
        return None
    if any(imports.decorator(d) == "clauz3.mock" for d in fn.decorator_list):
        return "mock"
    return "unmarked" if stub_body(fn.body) else "real"


def domain_kind(statuses: list[str], errors: bool) -> str:
    """MOCK-3, first match wins. No effects at all is never ``mock``: there is nothing simulated to claim."""
    if statuses and all(s == "mock" for s in statuses):
        return "mock"
    if any(s == "mock" for s in statuses):
        return "mixed"
    if errors or any(s == "unmarked" for s in statuses):
        return "unmarked"
    return "real"
