"""Fetching remote sources with git (05 SRC-1): ``ls-remote`` → commit → cached clone.

Git runs with ``GIT_TERMINAL_PROMPT=0``, ``protocol.ext.allow=never``, ``core.hooksPath=/dev/null``,
no submodules, the operator's usual authentication and no ``CLAUZ3_*`` variables. Clones go to a
temporary folder and are renamed to ``<cache>/sources/<commit>/`` only once checked out, so a
failed fetch never leaves a half clone where a later run would reuse it.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from clauz3.layers.liberrors import LibraryError
from clauz3.layers.locations import make_private_dir

LS_REMOTE_TIMEOUT = 60
CLONE_TIMEOUT = 300
CHECKOUT_TIMEOUT = 60
_FULL_ID = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")
_SAFETY = ["-c", "protocol.ext.allow=never", "-c", "core.hooksPath=/dev/null", "-c", "submodule.recurse=false"]


def git_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAUZ3_")}
    env["GIT_TERMINAL_PROMPT"] = "0"
    return env


def _git(args: list[str], source: str, timeout: int, cwd: Path | None = None) -> str:
    exe = shutil.which("git")
    if exe is None:
        raise LibraryError(f"git is not installed; install git to fetch {source}", "source_unavailable",
                           missing="git")
    try:
        proc = subprocess.run([exe, *_SAFETY, *args], cwd=cwd, env=git_env(), capture_output=True, text=True,
                              timeout=timeout, stdin=subprocess.DEVNULL, check=False)
    except subprocess.TimeoutExpired:
        raise LibraryError(f"could not fetch {source}: git {args[0]} timed out after {timeout} s",
                           "source_unavailable") from None
    except OSError as exc:
        raise LibraryError(f"git is not usable: {exc.strerror or exc}", "source_unavailable", missing="git") from None
    if proc.returncode != 0:
        lines = [ln.strip() for ln in proc.stderr.splitlines() if ln.strip()]
        last = lines[-1] if lines else f"git {args[0]} exited with status {proc.returncode}"
        raise LibraryError(f"could not fetch {source}: {last}", "source_unavailable")
    return proc.stdout


def remote_commit(url: str, ref: str, source: str) -> str:
    """REF (default ``HEAD``) → commit via ``git ls-remote``; a full 40/64-hex id is used as is.

    ``source`` is the source as the person wrote it, for messages.
    """
    ref = ref or "HEAD"
    if _FULL_ID.fullmatch(ref.lower()):
        return ref.lower()
    out = _git(["ls-remote", "--", url, ref], source, LS_REMOTE_TIMEOUT)
    rows = [line.split("\t", 1) for line in out.splitlines() if "\t" in line]
    # An annotated tag lists the tag object and then the peeled commit (``^{}``); the commit wins.
    peeled = [sha for sha, name in rows if name.endswith("^{}")]
    plain = [sha for sha, _ in rows]
    for sha in (peeled or plain)[:1]:
        return sha.strip()
    raise LibraryError(f"could not fetch {source}: no ref {ref} in {url}", "source_unavailable")


def _head(path: Path, source: str) -> str | None:
    try:
        return _git(["rev-parse", "HEAD"], source, CHECKOUT_TIMEOUT, cwd=path).strip()
    except LibraryError as exc:
        if exc.missing is not None:
            raise
        return None


def fetch(url: str, ref: str, source: str, cache: Path) -> tuple[Path, str]:
    """``(<cache>/sources/<commit>, commit)``, reusing a cached clone only when its ``HEAD`` is the commit.

    A plain tool: it knows git, not how sources are parsed (``source`` is the text for messages).
    """
    commit = remote_commit(url, ref, source)
    sources = cache / "sources"
    dest = sources / commit
    if dest.is_dir() and not dest.is_symlink() and _head(dest, source) == commit:
        return dest, commit
    make_private_dir(sources)
    tmp = Path(tempfile.mkdtemp(prefix=".clone-", dir=sources))
    try:
        _git(["clone", "--no-checkout", "--no-recurse-submodules", "--quiet", "--", url, str(tmp / "repo")],
             source, CLONE_TIMEOUT)
        _git(["checkout", "--quiet", "--detach", commit], source, CHECKOUT_TIMEOUT, cwd=tmp / "repo")
        if _head(tmp / "repo", source) != commit:
            raise LibraryError(f"could not fetch {source}: checkout did not reach {commit}", "source_unavailable")
        if os.path.lexists(dest):
            shutil.rmtree(dest, ignore_errors=True)
        os.replace(tmp / "repo", dest)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return dest, commit
