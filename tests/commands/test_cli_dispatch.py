import subprocess
import sys


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "clauz3", *args], capture_output=True, text=True)


def test_version() -> None:
    out = run("--version")
    assert out.returncode == 0
    assert out.stdout.strip().startswith("clauz3 ")


def test_no_subcommand_lists_on_stderr_exit_2() -> None:
    out = run()
    assert out.returncode == 2
    assert "subcommands" in out.stderr


def test_unknown_subcommand_is_one_line() -> None:
    out = run("frobnicate")
    assert out.returncode == 2
    assert out.stderr.count("\n") == 1 and out.stderr.startswith("error: ")
