"""05 §14 "CLI and data" acceptance lines: help and usage errors on every subcommand (CLI-3, CLI-4),
internal errors and crash files (CLI-6), data-directory rules (§2.4, DATA-1, DATA-2), `ui` launch
refusals (CLI-12, TUT-5) and `--debug` on `ui`, `start` and `resume` (§2.2)."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from clauz3.cli import build_parser, main

SUBCOMMANDS = ("ui", "start", "resume", "prove", "run", "approval-service", "approval-keygen",
               "mock-approval-service", "policy-check", "tools", "libraries", "install", "test", "lint", "config")
SECRET = "env-value-that-must-not-leak-0123456789"


def clean_env(tmp: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUZ3_", "XDG_"))}
    env.update(HOME=str(tmp / "home"), **extra)
    return env


def clauz3(tmp: Path, *args: str, cwd: Path | None = None, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "clauz3", *args], cwd=cwd or tmp, env=clean_env(tmp, **env),
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)


def test_the_fifteen_subcommands_are_all_there() -> None:
    parser = build_parser(None)
    sub = next(a for a in parser._actions if a.dest == "command")
    assert set(SUBCOMMANDS) <= set(sub.choices)
    # `link` is the one addition, sanctioned by 00 DEC-8.
    assert set(sub.choices) - set(SUBCOMMANDS) <= {"link"}


@pytest.mark.parametrize("sub", SUBCOMMANDS)
def test_help_exits_0_and_creates_no_data_dir(sub: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "data"
    monkeypatch.setenv("CLAUZ3_HOME", str(data))
    monkeypatch.setenv("CLAUZ3_CACHE", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exited:
        main([sub, "--help"])
    assert exited.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: clauz3 " + sub)
    assert list(tmp_path.iterdir()) == []  # no <data>, no cache, nothing in the folder

    assert main([sub, "--no-such-flag"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: ")
    assert err.rstrip("\n").endswith(f"(see clauz3 {sub} --help)")
    assert "usage:" not in err
    assert list(tmp_path.iterdir()) == []


def test_help_lists_every_flag_with_its_default(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["install", "--help"])
    out = capsys.readouterr().out
    for flag in ("--into", "--global", "--force", "--skills", "--dry-run", "--yes", "--remove"):
        assert flag in out


INJECT = """
import sys
import clauz3.commands.tools as tools
def boom(args):
    raise RuntimeError("injected failure")
tools.run = boom
from clauz3.cli import main
sys.exit(main(sys.argv[1:]))
"""


def inject(tmp: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", INJECT, *args], cwd=tmp, capture_output=True, text=True,
                          env=clean_env(tmp, CLAUZ3_HOME=str(tmp / "data"), MY_TOKEN=SECRET, **env), timeout=60)


def test_injected_internal_exception_gives_one_line_exit_70_and_a_private_crash_file(tmp_path: Path) -> None:
    out = inject(tmp_path, "tools")
    assert out.returncode == 70
    lines = out.stderr.splitlines()
    assert len(lines) == 1, out.stderr
    prefix = "error: internal error (RuntimeError); details in "
    assert lines[0].startswith(prefix) and "Traceback" not in out.stderr
    crash = Path(lines[0][len(prefix):])
    logs = tmp_path / "data" / "logs"
    assert crash.parent == logs
    assert crash.name.startswith("crash-") and crash.name.endswith(f"-{crash.name.split('-')[-1]}")
    assert crash.name.endswith(".txt") and crash.name.split("-")[1].endswith("Z")
    assert stat.S_IMODE(crash.stat().st_mode) == 0o600
    for folder in (tmp_path / "data", logs):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    text = crash.read_text()
    assert text.startswith("clauz3 ") and "argv:" in text and "injected failure" in text
    assert "Traceback (most recent call last)" in text
    assert SECRET not in text and str(tmp_path / "home") not in text


@pytest.mark.parametrize("how", ["flag", "env"])
def test_debug_adds_the_traceback(tmp_path: Path, how: str) -> None:
    script = INJECT.replace("clauz3.commands.tools as tools", "clauz3.commands.ui as tools")
    args = ["ui", "demo", "--debug"] if how == "flag" else ["ui", "demo"]
    env = {"CLAUZ3_DEBUG": "1"} if how == "env" else {}
    out = subprocess.run([sys.executable, "-c", script, *args], cwd=tmp_path, capture_output=True, text=True,
                         env=clean_env(tmp_path, CLAUZ3_HOME=str(tmp_path / "data"), **env), timeout=60)
    assert out.returncode == 70
    assert "Traceback (most recent call last)" in out.stderr and "RuntimeError: injected failure" in out.stderr
    assert out.stderr.splitlines()[-1].startswith("error: internal error (RuntimeError); details in ")


def test_only_the_newest_20_crash_files_are_kept(tmp_path: Path) -> None:
    logs = tmp_path / "data" / "logs"
    logs.mkdir(parents=True, mode=0o700)
    for i in range(25):
        (logs / f"crash-20000101T0000{i:02d}Z-1.txt").write_text("old")
    (logs / "agent-x.log").write_text("not a crash file")
    assert inject(tmp_path, "tools").returncode == 70
    crashes = sorted(p.name for p in logs.glob("crash-*.txt"))
    assert len(crashes) == 20
    assert "crash-20000101T000000Z-1.txt" not in crashes and "crash-20000101T000024Z-1.txt" in crashes
    assert (logs / "agent-x.log").exists()


@pytest.mark.parametrize("args", [["libraries"], ["install", "stdlib:filesystem", "--dry-run"], ["link"],
                                  ["ui", "demo", "--no-browser"], ["resume", "--list"]])
def test_relative_clauz3_home_exits_2(tmp_path: Path, args: list[str]) -> None:
    out = clauz3(tmp_path, *args, CLAUZ3_HOME="relative/data")
    assert out.returncode == 2
    assert out.stderr == "error: `CLAUZ3_HOME` must be an absolute path\n"
    assert list(tmp_path.iterdir()) == []


def test_relative_xdg_data_home_is_ignored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from clauz3.commands._errors import data_dir
    from clauz3.layers.locations import cache_dir
    from clauz3.layers.locations import data_dir as layers_data_dir

    monkeypatch.delenv("CLAUZ3_HOME", raising=False)
    monkeypatch.delenv("CLAUZ3_CACHE", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_DATA_HOME", "relative/xdg")
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")
    assert data_dir() == layers_data_dir() == tmp_path / ".local" / "share" / "clauz3"
    assert cache_dir() == tmp_path / ".cache" / "clauz3"
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert data_dir() == layers_data_dir() == tmp_path / "xdg" / "clauz3"
    monkeypatch.setenv("CLAUZ3_HOME", "")  # empty counts as unset
    assert data_dir() == tmp_path / "xdg" / "clauz3"


def test_relative_xdg_data_home_end_to_end(tmp_path: Path) -> None:
    (tmp_path / "home").mkdir()
    project = tmp_path / "project"
    project.mkdir()
    out = clauz3(tmp_path, "install", "-g", "stdlib:filesystem", "--yes", cwd=project, XDG_DATA_HOME="rel",
                 XDG_CACHE_HOME="relc")
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "home" / ".local" / "share" / "clauz3" / "global" / "tools" / "filesystem").is_dir()
    assert not (project / "rel").exists() and not (tmp_path / "rel").exists()


def test_created_dirs_are_0700_and_files_0600(tmp_path: Path) -> None:
    data = tmp_path / "data"
    project = tmp_path / "project"
    project.mkdir()
    env = {"CLAUZ3_HOME": str(data), "CLAUZ3_CACHE": str(tmp_path / "cache")}
    assert clauz3(tmp_path, "install", "-g", "stdlib:filesystem", "--yes", cwd=project, **env).returncode == 0
    assert clauz3(tmp_path, "install", "global:filesystem", "--yes", "--skills", cwd=project, **env).returncode == 0
    seen = 0
    for folder, _dirs, files in os.walk(data):
        assert stat.S_IMODE(os.lstat(folder).st_mode) == 0o700, folder
        for name in files:
            path = os.path.join(folder, name)
            assert stat.S_IMODE(os.lstat(path).st_mode) == 0o600, path
            seen += 1
    assert seen >= 3


def test_unknown_tutorial_lists_the_ids(tmp_path: Path) -> None:
    out = clauz3(tmp_path, "ui", "demo", "--tutorial", "nope", CLAUZ3_HOME=str(tmp_path / "data"))
    assert out.returncode == 2 and out.stderr.count("\n") == 1
    assert "email" in out.stderr and "real-files" in out.stderr and "'nope'" in out.stderr
    assert not (tmp_path / "data").exists()


def test_unknown_agent_lists_the_agents(tmp_path: Path) -> None:
    for sub in ("start", "ui"):
        out = clauz3(tmp_path, sub, "nosuchagent", CLAUZ3_HOME=str(tmp_path / "data"))
        assert out.returncode == 2 and out.stderr.count("\n") == 1, out.stderr
        for agent in ("claude", "codex", "opencode", "pi", "agy", "demo"):
            assert agent in out.stderr
    assert not (tmp_path / "data").exists()


@pytest.mark.parametrize("inside", [".", "workspaces", "tutorials/email"])
def test_project_inside_data_dir_exits_2(tmp_path: Path, inside: str) -> None:
    data = tmp_path / "data"
    folder = data / inside
    folder.mkdir(parents=True, mode=0o700)
    for sub in ("ui", "start"):
        out = clauz3(tmp_path, sub, "demo", "--no-browser", cwd=folder, CLAUZ3_HOME=str(data))
        assert out.returncode == 2, (sub, out.stderr)
        assert out.stderr == "error: the clauz3 data directory cannot be opened as a workspace\n"
    assert not (data / "conversations.sqlite").exists()
    assert not any(p.name.startswith("workspace-") for p in (data / "locks").glob("*")) \
        if (data / "locks").exists() else True


@pytest.mark.parametrize("sub", ["ui", "start", "resume"])
def test_ui_start_resume_accept_debug(sub: str) -> None:
    argv = {"ui": ["ui", "demo", "--debug"], "start": ["start", "demo", "--debug"],
            "resume": ["resume", "--list", "--debug"]}[sub]
    args = build_parser(sub).parse_args(argv)
    assert args.debug is True
