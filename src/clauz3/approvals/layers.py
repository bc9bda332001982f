"""Layer authorisation (03 §8): frozen, resolved root lists compared as ordered lists."""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from clauz3.approvals.errors import ApprovalError
from clauz3.storage.paths import canonical_project


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


# ------------------------------------------------------------------------- content of a layer
# Issue 11 §2: a layer is bound by the bytes it holds, not by names or (size, mtime). The authority
# hashes its authorised layer when it builds a card and puts the hash into the receipt; the worker
# copies the same files into a private directory, hashes the bytes it copied and loads the copy, and
# refuses a receipt whose layer hash differs. Both sides use this one walk.

MAX_LAYER_FILES = 2000
MAX_LAYER_BYTES = 32 * 1024 * 1024


class LayerContentError(ApprovalError, ValueError):
    """A layer that cannot be bound by content (a link, a special file, a root outside its import root)."""

    def __init__(self, message: str) -> None:
        super().__init__("layer_content", message)


@dataclass(frozen=True)
class LayerFile:
    index: int  # the import root holding it
    relative: str  # POSIX path under that import root
    data: bytes


@dataclass(frozen=True)
class LayerContent:
    trusted_roots: tuple[str, ...]  # resolved, as the layer was named
    import_roots: tuple[str, ...]
    placed: tuple[tuple[int, str], ...]  # each trusted root: (import root index, path under it)
    files: tuple[LayerFile, ...]

    @property
    def sha256(self) -> str:
        import hashlib

        from clauz3.approvals.canonical import canonical_json

        doc = {"trusted_roots": list(self.trusted_roots), "import_roots": list(self.import_roots),
               "files": {f"{f.index}/{f.relative}": hashlib.sha256(f.data).hexdigest() for f in self.files}}
        return hashlib.sha256(canonical_json(doc)).hexdigest()


def _read_nofollow(path: str) -> bytes:
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        chunks = []
        while chunk := os.read(fd, 1 << 16):
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def _import_root_of(root: Path) -> str | None:
    """The folder holding ``tools/`` for ``<import root>/tools/<d>[/<org>]/trusted`` (01 TL-1), resolved."""
    parts = root.parts
    if len(parts) < 3 or parts[-1] != "trusted":
        return None
    for depth in (1, 2):
        if len(parts) >= depth + 3 and parts[-(depth + 2)] == "tools":
            if all(p.isidentifier() for p in parts[-(depth + 1):-1]):
                return os.path.realpath(Path(*parts[: -(depth + 2)]))
    return None


def _walk_domain(domain: str, prefix: str, index: int, out: dict[tuple[int, str], LayerFile]) -> None:
    import stat

    stack = [(domain, prefix)]
    while stack:
        folder, rel = stack.pop()
        with os.scandir(folder) as entries:
            listed = sorted(entries, key=lambda e: e.name)
        for entry in listed:
            st = os.lstat(entry.path)
            child = f"{rel}/{entry.name}"
            if stat.S_ISDIR(st.st_mode):
                if entry.name != "__pycache__":
                    stack.append((entry.path, child))
            elif stat.S_ISREG(st.st_mode):
                if not entry.name.endswith(".pyc"):
                    out[(index, child)] = LayerFile(index, child, _read_nofollow(entry.path))
            else:
                raise LayerContentError(f"link or special file in a trusted library: {entry.path}")


def layer_content(trusted_roots: Iterable[str], import_roots: Iterable[str]) -> LayerContent:
    """Every file of every trusted root's domain (``tools/<d>/``) plus the package initialisers between
    its import root and the domain, read once without following links."""
    trusted, imports = _resolve(trusted_roots), _resolve(import_roots)
    files: dict[tuple[int, str], LayerFile] = {}
    placed: list[tuple[int, str]] = []
    for root in trusted:
        base = _import_root_of(Path(root))
        if base is None or base not in imports:
            raise LayerContentError(f"trusted root {root} is not <import root>/tools/<domain>/trusted")
        index = imports.index(base)
        rel_root = Path(root).relative_to(base).as_posix()
        placed.append((index, rel_root))
        domain_rel = Path(rel_root).parent
        for depth in range(1, len(domain_rel.parts)):  # tools/__init__.py, tools/<org>/__init__.py
            init = Path(*domain_rel.parts[:depth], "__init__.py").as_posix()
            path = os.path.join(base, init)
            if os.path.lexists(path):
                if os.path.islink(path) or not os.path.isfile(path):
                    raise LayerContentError(f"link or special file in a trusted library: {path}")
                files[(index, init)] = LayerFile(index, init, _read_nofollow(path))
        domain = os.path.join(base, domain_rel.as_posix())
        if os.path.islink(domain) or not os.path.isdir(domain):
            raise LayerContentError(f"trusted library folder {domain} is a link or missing")
        _walk_domain(domain, domain_rel.as_posix(), index, files)
    ordered = tuple(files[k] for k in sorted(files))
    if len(ordered) > MAX_LAYER_FILES or sum(len(f.data) for f in ordered) > MAX_LAYER_BYTES:
        raise LayerContentError(f"the layer holds more than {MAX_LAYER_FILES} files or {MAX_LAYER_BYTES} bytes")
    return LayerContent(trusted, imports, tuple(placed), ordered)


def layer_sha256(trusted_roots: Iterable[str], import_roots: Iterable[str]) -> str | None:
    """The content hash of a layer as it is now, or None when it cannot be bound by content."""
    try:
        return layer_content(trusted_roots, import_roots).sha256
    except (LayerContentError, OSError):
        return None
