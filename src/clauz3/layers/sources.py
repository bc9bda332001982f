"""Source strings and their resolution to a folder holding ``tools/`` (05 §5.1, SRC-1).

Forms: ``stdlib:NAME`` (package data), bare ``NAME`` for a stdlib name when ``./NAME`` does not
exist, ``global:DOMAIN``, a local path, ``gh:ORG/REPO[@REF]`` and git URLs (``https://``,
``ssh://``, ``git@host:path``, ``file://``) with an optional ``@REF``. Resolution never imports
or runs library code; remote sources are cloned by :mod:`clauz3.layers.gitfetch`.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from clauz3.layers.gitfetch import fetch
from clauz3.layers.liberrors import LibraryError
from clauz3.layers.locations import cache_dir, is_symlink

_GH_PART = re.compile(r"[A-Za-z0-9_.-]+")
_CONTROL = re.compile(r"[\x00-\x20\x7f]")


def stdlib_root() -> Path:
    """``clauz3/stdlib/`` as a real folder (package data; works from an unpacked wheel). Tests use it as it
    is: there is no switch to point it elsewhere."""
    return Path(str(resources.files("clauz3"))) / "stdlib"


def stdlib_names() -> list[str]:
    root = stdlib_root()
    try:
        return sorted(p.name for p in root.iterdir() if (p / "tools").is_dir() and not p.name.startswith(("_", ".")))
    except OSError:
        return []


@dataclass(frozen=True)
class SourceSpec:
    """A parsed source string; ``text`` is the normalized form recorded in origin records (INS-1)."""

    kind: str  # "stdlib", "global", "local", "git"
    text: str
    name: str = ""  # stdlib name or global domain
    path: Path | None = None  # local
    url: str = ""  # git clone URL
    ref: str = ""  # git ref as given ("" = HEAD)

    @property
    def remote(self) -> bool:
        return self.kind == "git"

    @property
    def web_url(self) -> str | None:
        """A page people can open: the repository for GitHub sources, the URL for https git sources."""
        if self.kind != "git":
            return None
        if self.url.startswith("https://"):
            return self.url.removesuffix(".git") if self.url.startswith("https://github.com/") else self.url
        return None


@dataclass
class ResolvedSource:
    """A source made concrete: ``root`` holds ``tools/``; ``only`` limits which domains it provides."""

    spec: SourceSpec
    root: Path
    revision: str = ""
    only: list[str] | None = None
    warnings: list[str] = field(default_factory=list)

    @property
    def source(self) -> str:
        return self.spec.text


def _refuse_text(source: str) -> None:
    if not source or _CONTROL.search(source):
        raise LibraryError(f"invalid source {source!r}: empty or holds whitespace or control characters",
                           "invalid_request")


def _split_ref(text: str, start: int) -> tuple[str, str]:
    """SRC-1: ``@`` separates a ref only after the last ``/`` (or, with no ``/``, after ``start``)."""
    tail_from = max(text.rfind("/") + 1, start)
    at = text.find("@", tail_from)
    if at < 0:
        return text, ""
    ref = text[at + 1 :]
    if not ref:
        raise LibraryError(f"invalid source {text!r}: empty ref after @", "invalid_request")
    return text[:at], ref


def _check_dash(source: str, *parts: str) -> None:
    for part in parts:
        if part.startswith("-"):
            raise LibraryError(f"invalid source {source!r}: {part!r} must not start with '-'", "invalid_request")


def _git_host(url: str) -> str:
    if url.startswith("git@"):
        return url[4:].split(":", 1)[0]
    rest = url.split("://", 1)[1] if "://" in url else url
    host = rest.split("/", 1)[0]
    return host.rsplit("@", 1)[-1]


def parse_source(text: str, *, cwd: Path | None = None, target_kind: str = "project") -> SourceSpec:
    """Classify ``text``; raises :class:`LibraryError` for refused or unknown forms."""
    _refuse_text(text)
    cwd = cwd or Path.cwd()
    if text.startswith("stdlib:"):
        name = text[len("stdlib:") :]
        if name not in stdlib_names():
            raise LibraryError(f"unknown source {text}: stdlib libraries are " + ", ".join(stdlib_names()),
                               "unknown_source")
        return SourceSpec("stdlib", f"stdlib:{name}", name=name)
    if text.startswith("global:"):
        if target_kind == "global":
            raise LibraryError("global: sources cannot be installed with --global", "invalid_request")
        name = text[len("global:") :]
        parts = name.split("/")
        if not 1 <= len(parts) <= 2 or not all(p.isidentifier() for p in parts):
            raise LibraryError(f"invalid source {text}: not a domain name", "invalid_request")
        return SourceSpec("global", f"global:{name}", name=name)
    if text.startswith("gh:"):
        body, ref = _split_ref(text[3:], 0)
        pieces = body.split("/")
        _check_dash(text, *pieces, ref)
        if len(pieces) != 2 or not all(_GH_PART.fullmatch(p) for p in pieces):
            raise LibraryError(f"invalid source {text}: expected gh:ORG/REPO[@REF]", "invalid_request")
        return SourceSpec("git", text, url=f"https://github.com/{pieces[0]}/{pieces[1]}.git", ref=ref)
    lowered = text.lower()
    if lowered.startswith(("http://", "git://")):
        raise LibraryError(f"refused source {text}: http:// and git:// are not allowed; use https:// or ssh://",
                           "invalid_request")
    if lowered.startswith(("https://", "ssh://", "file://")) or text.startswith("git@"):
        start = text.index(":") + 1
        url, ref = _split_ref(text, start)
        _check_dash(text, url, ref, _git_host(url))
        if text.startswith("git@") and ":" not in text[4:]:
            raise LibraryError(f"invalid source {text}: expected git@host:path", "invalid_request")
        return SourceSpec("git", text, url=url, ref=ref)
    if text.startswith("-"):
        raise LibraryError(f"invalid source {text!r}: must not start with '-'", "invalid_request")
    path = Path(text) if os.path.isabs(text) else cwd / text
    if not os.path.lexists(path) and "/" not in text and text in stdlib_names():
        return SourceSpec("stdlib", f"stdlib:{text}", name=text)
    if not path.is_dir():
        names = ", ".join(stdlib_names())
        raise LibraryError(f"unknown source {text}: not a directory, a stdlib name ({names}), gh:ORG/REPO or "
                           "a git URL", "unknown_source")
    real = Path(os.path.realpath(path))
    if real.name == "tools" and not (real / "tools").is_dir():
        real = real.parent
    if not (real / "tools").is_dir():
        raise LibraryError(f"{text}: no tools/ folder here", "invalid_library")
    return SourceSpec("local", str(real), path=real)


def resolve_dependency_text(text: str, declaring: ResolvedSource) -> str:
    """A dependency string as a source string: relative local paths are relative to the declaring source."""
    if ":" in text.split("/", 1)[0] or text.startswith(("git@", "/")):
        return text
    if declaring.spec.kind == "local" or declaring.spec.kind in ("stdlib", "global"):
        candidate = declaring.root / text
        if os.path.lexists(candidate):
            return str(candidate)
    return text


def resolve(spec: SourceSpec, *, data: Path, cache: Path | None = None) -> ResolvedSource:
    """Make ``spec`` concrete; remote sources are fetched into ``<cache>/sources/<commit>/``."""
    if spec.kind == "stdlib":
        return ResolvedSource(spec, stdlib_root() / spec.name)
    if spec.kind == "local":
        assert spec.path is not None
        return ResolvedSource(spec, spec.path)
    if spec.kind == "global":
        store = data / "global"
        for p in (store, store / "tools", store / "tools" / spec.name.split("/")[0], store / "tools" / spec.name):
            if is_symlink(p):
                raise LibraryError(f"{p} is a symbolic link; refusing to read the global store through it")
        if not (store / "tools" / spec.name / "trusted").is_dir():
            raise LibraryError(f"unknown source {spec.text}: no global copy of {spec.name}; install it with "
                               f"clauz3 install -g <source>", "unknown_source")
        return ResolvedSource(spec, store, only=[spec.name])
    root, commit = fetch(spec.url, spec.ref, spec.text, cache or cache_dir())
    return ResolvedSource(spec, root, revision=commit)
