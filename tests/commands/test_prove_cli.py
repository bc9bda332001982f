"""`clauz3 prove` end to end in real subprocesses (01 §8.1, PCLI-1…4, CACHE-*, PERF-2)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EMAIL = ROOT / "examples" / "email"
TRUSTED = str(EMAIL / "tools" / "email" / "trusted")

HEADER = '''import clauz3
from tools.email.trusted import contracts as emails
from tools.email.trusted.effects import send_email

'''
PERF1 = HEADER + '''
@clauz3.guarantee(emails.only(["bob@example.com"]))
@clauz3.guarantee(emails.at_most(1))
@clauz3.guarantee(emails.unique_recipients())
def main() -> None:
    send_email("bob@example.com", "Hi from clauz3")
'''


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return dict(os.environ, CLAUZ3_HOME=str(tmp_path / "home"), CLAUZ3_CACHE=str(tmp_path / "cache"))


def prove(env: dict[str, str], *args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "clauz3", "prove", *args], capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=120)


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_perf1_program_proves_with_one_line_per_obligation(tmp_path: Path, env: dict[str, str]) -> None:
    out = prove(env, "--no-cache", "--trusted-root", TRUSTED, str(write(tmp_path, "main.py", PERF1)))
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith('main: proved precondition send_email at line 10: "@" in addr')
    assert lines[1:] == [
        'main: proved guarantee email.only(addresses=["bob@example.com"])',
        "main: proved guarantee email.at_most(count=1)",
        "main: proved guarantee email.unique_recipients()",
    ]


def test_second_send_violates_at_most_naming_both_lines(tmp_path: Path, env: dict[str, str]) -> None:
    source = PERF1.replace('    send_email("bob@example.com", "Hi from clauz3")\n',
                           '    send_email("bob@example.com", "Hi from clauz3")\n'
                           '    send_email("bob@example.com", "again")\n')
    out = prove(env, "--no-cache", "--trusted-root", TRUSTED, str(write(tmp_path, "two.py", source)))
    assert out.returncode == 1
    assert "main: violated guarantee email.at_most(count=1)" in out.stdout
    why = next(line for line in out.stdout.splitlines()
               if line.startswith("  why:") and "matching calls" in line)
    assert "lines 10, 11" in why and "limit is <= 1" in why


def test_precondition_violation_quotes_the_message(tmp_path: Path, env: dict[str, str]) -> None:
    source = HEADER + "\ndef main() -> None:\n    send_email(\"bob\", \"x\")\n"
    out = prove(env, "--no-cache", "--trusted-root", TRUSTED, str(write(tmp_path, "pre.py", source)))
    assert out.returncode == 1
    assert "main: violated precondition send_email at line 7" in out.stdout
    assert 'addr="bob"' in out.stdout


def test_multi_value_roots_and_worst_exit_with_prefixes(tmp_path: Path, env: dict[str, str]) -> None:
    bad = write(tmp_path, "bad.py", HEADER + "\ndef main() -> None:\n    while True:\n        pass\n")
    fails = write(tmp_path, "fails.py", HEADER + "\ndef main() -> None:\n    send_email(\"bob\", \"x\")\n")
    out = prove(env, "--no-cache", "--trusted-roots", TRUSTED, "--", str(fails), str(bad))
    assert out.returncode == 2
    assert all(line.startswith(f"{fails}: ") for line in out.stdout.splitlines())
    assert "unsupported-statement" in out.stderr
    assert f"{bad}:7:5:" in out.stderr


def test_refusal_prints_no_verdicts(tmp_path: Path, env: dict[str, str]) -> None:
    source = HEADER + "import os\n\ndef main() -> None:\n    pass\n"
    out = prove(env, "--no-cache", "--trusted-root", TRUSTED, str(write(tmp_path, "os_.py", source)))
    assert out.returncode == 2
    assert out.stdout == ""
    assert "import-not-allowed" in out.stderr and "(hint:" in out.stderr


def test_target_missing_exits_1(tmp_path: Path, env: dict[str, str]) -> None:
    out = prove(env, "--no-cache", "--trusted-root", TRUSTED, str(write(tmp_path, "t.py", HEADER)))
    assert out.returncode == 1
    assert "target-missing" in out.stderr


@pytest.mark.parametrize("flag,value", [("--obligation-timeout", "0.05"), ("--obligation-timeout", "601"),
                                        ("--proof-timeout", "0"), ("--proof-timeout", "nan"),
                                        ("--target", "not an identifier")])
def test_out_of_range_settings_exit_2_before_anything(tmp_path: Path, env: dict[str, str], flag: str,
                                                      value: str) -> None:
    out = prove(env, flag, value, "--trusted-root", TRUSTED, str(write(tmp_path, "m.py", PERF1)))
    assert out.returncode == 2
    assert out.stderr.startswith("error: ") and out.stderr.count("\n") == 1
    assert not (tmp_path / "cache").exists()


def test_deterministic_across_hash_seeds_and_cached(tmp_path: Path, env: dict[str, str]) -> None:
    program = str(write(tmp_path, "main.py", PERF1))
    first = prove(dict(env, PYTHONHASHSEED="1"), "--json", "--trusted-root", TRUSTED, program)
    second = prove(dict(env, PYTHONHASHSEED="2"), "--json", "--trusted-root", TRUSTED, program)
    a = json.loads(first.stdout)["entries"][0]
    b = json.loads(second.stdout)["entries"][0]
    assert a["cached"] is False and b["cached"] is True
    for entry in (a, b):
        entry.pop("cached")
        entry.pop("elapsed_ms")
        for o in entry["obligations"]:
            o.pop("elapsed_ms", None)
    assert a == b
    text1 = prove(dict(env, PYTHONHASHSEED="3"), "--no-cache", "--trusted-root", TRUSTED, program).stdout
    text2 = prove(dict(env, PYTHONHASHSEED="4"), "--trusted-root", TRUSTED, program).stdout
    assert text1 == text2


def test_changed_trusted_byte_changes_the_cache_key(tmp_path: Path, env: dict[str, str]) -> None:
    import shutil

    lib = tmp_path / "lib"
    shutil.copytree(EMAIL / "tools", lib / "tools", ignore=shutil.ignore_patterns("__pycache__"))
    program = str(write(tmp_path, "main.py", PERF1))
    trusted = str(lib / "tools" / "email" / "trusted")
    prove(env, "--json", "--trusted-root", trusted, program)
    again = json.loads(prove(env, "--json", "--trusted-root", trusted, program).stdout)["entries"][0]
    assert again["cached"] is True
    effects = lib / "tools" / "email" / "trusted" / "effects.py"
    effects.write_text(effects.read_text() + "\n")
    after = json.loads(prove(env, "--json", "--trusted-root", trusted, program).stdout)["entries"][0]
    assert after["cached"] is False


# PERF-2's observer, kept in the test: run the CLI's own main, then print every module it imported.
SHOW_MODULES = """import json, sys
try:
    from clauz3.cli import main
    code = main(sys.argv[1:])
finally:
    print(json.dumps(sorted(sys.modules)), file=sys.stderr)
raise SystemExit(code)
"""


def test_prove_loads_no_web_acp_mcp_crypto_or_yaml(tmp_path: Path, env: dict[str, str]) -> None:
    out = subprocess.run([sys.executable, "-c", SHOW_MODULES, "prove", "--no-cache", "--trusted-root", TRUSTED,
                          str(write(tmp_path, "main.py", PERF1))], capture_output=True, text=True, env=env,
                         cwd=ROOT, timeout=120)
    assert out.returncode == 0
    modules = json.loads(out.stderr.strip().splitlines()[-1])
    banned = ("starlette", "uvicorn", "acp", "mcp", "cryptography", "yaml", "jsonschema", "httpx")
    loaded = [m for m in modules if m.split(".")[0] in banned]
    assert loaded == []
    assert "z3" in modules
