"""``clauz3 install``, ``libraries`` and ``config`` through the dispatcher (05 §2, §5.3, §6.5, CLI-18)."""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from clauz3.cli import main
from clauz3.layers import sources

EFFECTS = '''\
import clauz3


@clauz3.trusted
def touch(path: str) -> None:
    """Touch a path."""
    print(path)
'''


def make_domain(root: Path, name: str, *, manifest: bool = True) -> Path:
    trusted = root / "tools" / name / "trusted"
    trusted.mkdir(parents=True)
    (trusted / "effects.py").write_text(EFFECTS)
    if manifest:
        (root / "tools" / name / "clauz3.yaml").write_text(
            f"schema_version: 1\nname: {name}\ntitle: {name.title()} tools\nsummary: Work with {name}.\n"
            f"description: The {name} library.\n")
    return root


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    data = tmp_path / "data"
    monkeypatch.setenv("CLAUZ3_HOME", str(data))
    monkeypatch.setenv("CLAUZ3_CACHE", str(tmp_path / "cache"))
    project = tmp_path / "project"
    project.mkdir()
    monkeypatch.chdir(project)
    return {"data": data, "project": project, "tmp": tmp_path}


@pytest.mark.parametrize("sub", ["install", "libraries", "config"])
def test_help_creates_nothing(sub: str, tmp_path: Path) -> None:
    env = {**os.environ, "CLAUZ3_HOME": str(tmp_path / "data")}
    out = subprocess.run([sys.executable, "-m", "clauz3", sub, "--help"], capture_output=True, text=True, env=env,
                         cwd=tmp_path)
    assert out.returncode == 0 and "default" in out.stdout
    assert not (tmp_path / "data").exists()
    bad = subprocess.run([sys.executable, "-m", "clauz3", sub, "--nope"], capture_output=True, text=True, env=env,
                         cwd=tmp_path)
    # The "(see clauz3 <sub> --help)" suffix for unknown flags belongs to the dispatcher (cli.py).
    assert bad.returncode == 2 and bad.stderr.startswith("error: ") and bad.stderr.count("\n") == 1


def test_non_tty_without_yes_refused(env: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["install", "stdlib:filesystem"]) == 2
    assert "refusing to apply without confirmation" in capsys.readouterr().err
    assert list(env["project"].iterdir()) == []


def test_dry_run_then_yes(env: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["install", "stdlib:filesystem", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Review: install stdlib:filesystem into ")
    bundled = sources.stdlib_root() / "filesystem" / "tools" / "filesystem"
    files = [p for p in bundled.rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    assert f"filesystem: {len(files)} added · 0 changed · 0 removed" in out and "  + trusted/effects.py" in out
    assert not (env["project"] / ".clauz3" / "tools").exists()
    assert main(["install", "stdlib:filesystem", "--yes", "--skills"]) == 0
    out = capsys.readouterr().out
    installed = env["project"] / ".clauz3" / "tools" / "filesystem"
    assert f"installed filesystem (from stdlib:filesystem) → {installed}" in out
    assert "generated skill: " in out
    skill = env["project"] / ".clauz3" / "skills" / "filesystem" / "SKILL.md"
    assert "- `read_file(path: str) -> str`: Return the text of the file at path" in skill.read_text()
    assert main(["install", "stdlib:filesystem", "--yes"]) == 2
    assert "already installed from stdlib:filesystem. Use --force" in capsys.readouterr().err
    skill.write_text("my own notes\n")
    assert main(["install", "stdlib:filesystem", "--yes", "--force", "--skills"]) == 0
    captured = capsys.readouterr()
    assert "backup: " in captured.out and "warning: kept" in captured.err
    assert skill.read_text() == "my own notes\n"
    assert main(["install", "--remove", "filesystem", "--yes"]) == 0
    assert "removed filesystem (from stdlib:filesystem)" in capsys.readouterr().out
    assert not installed.exists()


def test_missing_manifest_warns(env: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    src = make_domain(env["tmp"] / "src", "bare", manifest=False)
    assert main(["install", str(src), "--yes"]) == 0
    assert ("warning: bare has no clauz3.yaml; it installs without a description or setup steps"
            in capsys.readouterr().err)


def test_workspace_lease_held_exit_5(env: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    from clauz3.layers.locations import project_sha256

    lock = env["data"] / "locks" / f"workspace-{project_sha256(env['project'])}.lock"
    lock.parent.mkdir(parents=True)
    fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        child = subprocess.run(
            [sys.executable, "-m", "clauz3", "install", "stdlib:filesystem", "--yes"],
            capture_output=True, text=True, cwd=env["project"], env={**os.environ})
    finally:
        os.close(fd)
    assert child.returncode == 5, child.stderr
    assert "running clauz3 workspace" in child.stderr
    assert not (env["project"] / ".clauz3" / "tools").exists()


def test_into_and_global(env: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["install", "stdlib:env", "--into", str(env["tmp"] / "nope"), "--yes"]) == 2
    assert main(["install", "stdlib:env", "--into", str(env["data"]), "--yes"]) == 2
    assert main(["install", "stdlib:env", "-g", "--yes"]) == 0
    assert "use in a project: clauz3 install global:env" in capsys.readouterr().out
    other = env["tmp"] / "other"
    other.mkdir()
    assert main(["install", "global:env", "--into", str(other), "--yes"]) == 0
    assert (other / ".clauz3" / "tools" / "env" / "trusted" / "effects.py").exists()


def test_libraries_command(env: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["libraries", "file"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("stdlib:filesystem [bundled; not installed]")
    assert "Install with: clauz3 install stdlib:filesystem" in out
    assert main(["libraries", "--json"]) == 0
    records = json.loads(capsys.readouterr().out)
    fields = {"source", "title", "description", "domains", "dependencies", "requirements", "url", "visibility",
              "installed", "origin", "modified", "mock", "install_command", "manifests"}
    assert records and all(set(r) == fields for r in records)
    assert main(["libraries", "zzz-nothing"]) == 0
    assert capsys.readouterr().out.strip() == "No libraries match. Run clauz3 libraries with no query to see all."
    assert main(["install", "stdlib:filesystem", "--yes"]) == 0
    capsys.readouterr()
    (env["project"] / ".clauz3" / "tools" / "filesystem" / "trusted" / "effects.py").write_text("# mine\n")
    assert main(["libraries", "filesystem"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("stdlib:filesystem [project; installed]") and "Modified locally" in out


def test_config_merge(env: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    settings = env["project"] / ".claude" / "settings.json"
    assert main(["config"]) == 0
    assert capsys.readouterr().out.strip() == f"wrote {settings}"
    data = json.loads(settings.read_text())
    assert data["permissions"]["defaultMode"] == "default"
    assert data["permissions"]["allow"] == ["Read", "Glob", "Grep", "Bash(clauz3 run:*)"]
    assert main(["config"]) == 0
    assert capsys.readouterr().out.strip() == f"already up to date: {settings}"
    settings.write_text(json.dumps({"permissions": {"defaultMode": "acceptEdits",
                                                    "allow": ["Read", "Bash(ls)", "Bash(clauz3:*)"]}, "other": 1}))
    assert main(["config"]) == 0
    assert capsys.readouterr().out.strip() == (f"updated {settings} (added: Glob, Grep, Bash(clauz3 run:*), "
                                               "removed: Bash(clauz3:*))")
    data = json.loads(settings.read_text())
    assert data["permissions"]["defaultMode"] == "acceptEdits" and data["other"] == 1
    assert data["permissions"]["allow"][:2] == ["Read", "Bash(ls)"]
    settings.write_text("{not json")
    assert main(["config"]) == 2
    assert "--force" in capsys.readouterr().err
    assert settings.read_text() == "{not json"
    assert main(["config", "--force"]) == 0
    assert json.loads(settings.read_text())["permissions"]["allow"][-1] == "Bash(clauz3 run:*)"
