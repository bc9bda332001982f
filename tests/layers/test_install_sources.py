"""Source strings and git fetching (05 §5.1, SRC-1); git runs against a local bare repository only."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from libkit import make_source

from clauz3.commands._errors import library_exit
from clauz3.layers.apply import apply_review
from clauz3.layers.catalogue_cache import read_cached
from clauz3.layers.gitfetch import git_env
from clauz3.layers.inventory import read_origin
from clauz3.layers.liberrors import LibraryError
from clauz3.layers.locations import Target
from clauz3.layers.review import prepare_install
from clauz3.layers.sources import parse_source


@pytest.mark.parametrize("text", ["gh:-evil/x", "https://h/r@-x", "http://h/r", "git://h/r", "https://-h/r",
                                  "gh:a/b c", "ssh://h/r\n", "gh:a", "-rf"])
def test_refused_sources(text: str, tmp_path: Path) -> None:
    with pytest.raises(LibraryError):
        parse_source(text, cwd=tmp_path)


def test_forms(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    gh = parse_source("gh:acme/tools@v1.2", cwd=tmp_path)
    assert (gh.kind, gh.url, gh.ref) == ("git", "https://github.com/acme/tools.git", "v1.2")
    scp = parse_source("git@example.com:acme/tools.git@main", cwd=tmp_path)
    assert (scp.url, scp.ref) == ("git@example.com:acme/tools.git", "main")
    assert parse_source("https://user@host/r.git", cwd=tmp_path).ref == ""
    assert parse_source("filesystem", cwd=tmp_path).text == "stdlib:filesystem"
    (tmp_path / "filesystem" / "tools").mkdir(parents=True)
    assert parse_source("filesystem", cwd=tmp_path).kind == "local"  # ./NAME exists: a path wins
    with pytest.raises(LibraryError, match="stdlib libraries are db, env, filesystem") as info:
        parse_source("stdlib:nope", cwd=tmp_path)
    assert info.value.code == "unknown_source"
    tools_dir = parse_source(str(tmp_path / "filesystem" / "tools"), cwd=tmp_path)
    assert tools_dir.path == (tmp_path / "filesystem").resolve()


def test_git_env_is_safe(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLAUZ3_APPROVAL_TOKEN", "secret")
    env = git_env()
    assert env["GIT_TERMINAL_PROMPT"] == "0"
    assert not any(k.startswith("CLAUZ3_") for k in env)


def _git(*args: str, cwd: Path) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True,
                          env={**git_env(), "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
                               "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"}).stdout.strip()


def test_install_from_local_git_repository(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLAUZ3_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("CLAUZ3_CACHE", str(tmp_path / "cache"))
    work = make_source(tmp_path / "work", {"mail": None})
    _git("init", "-q", "-b", "main", cwd=work)
    _git("add", ".", cwd=work)
    _git("commit", "-q", "-m", "one", cwd=work)
    _git("tag", "v1", cwd=work)
    first = _git("rev-parse", "HEAD", cwd=work)
    (work / "tools" / "mail" / "trusted" / "later.py").write_text("L = 1\n")
    _git("add", ".", cwd=work)
    _git("commit", "-q", "-m", "two", cwd=work)
    bare = tmp_path / "repo.git"
    subprocess.run(["git", "clone", "-q", "--bare", str(work), str(bare)], check=True)
    project = tmp_path / "project"
    project.mkdir()
    target = Target.for_project(project, tmp_path / "data")
    source = f"file://{bare}@v1"
    record = prepare_install(target, source, cwd=project)
    apply_review(target, record["id"])
    origin = read_origin(target.tools / "mail")
    assert origin is not None and origin["source"] == source and origin["revision"] == first
    assert not (target.tools / "mail" / "trusted" / "later.py").exists()
    assert (tmp_path / "cache" / "sources" / first / "tools" / "mail").is_dir()
    cached = read_cached(tmp_path / "data", source)
    assert cached is not None and cached["revision"] == first and cached["domains"]["mail"]["title"]
    # Reuse of the cached clone: a second review works with the remote gone when the ref is a full id.
    bare.rename(tmp_path / "gone.git")
    again = prepare_install(target, f"file://{bare}@{first}", cwd=project, force=True)
    assert again["domains"] == ["mail"]


def test_git_failures(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLAUZ3_CACHE", str(tmp_path / "cache"))
    target = Target.for_project(tmp_path, tmp_path / "data")
    with pytest.raises(LibraryError, match=r"could not fetch file://.*: ") as info:
        prepare_install(target, f"file://{tmp_path}/missing.git", cwd=tmp_path)
    assert library_exit(info.value) == 2 and info.value.code == "source_unavailable" and info.value.missing is None
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    with pytest.raises(LibraryError, match="git is not installed") as info:
        prepare_install(target, "gh:acme/tools", cwd=tmp_path)
    assert library_exit(info.value) == 4 and info.value.code == "source_unavailable" and info.value.missing == "git"
