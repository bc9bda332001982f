"""``clauz3 test SOURCE`` end to end in real subprocesses (01 §8.2 TEST-1…4, chapter 01 acceptance)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EMAIL = ROOT / "examples" / "email"
EMAIL_CASES = sorted(p.name for p in (EMAIL / "cases").glob("*.py"))


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith("CLAUZ3_")}
    return dict(base, CLAUZ3_HOME=str(tmp_path / "home"), CLAUZ3_CACHE=str(tmp_path / "cache"))


@pytest.fixture
def library(tmp_path: Path) -> Path:
    """A private copy of examples/email that a test may edit."""
    lib = tmp_path / "email"
    shutil.copytree(EMAIL, lib, ignore=shutil.ignore_patterns("__pycache__"))
    return lib


def clauz3_test(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "clauz3", "test", *args], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=300)


def test_email_example_prints_pass_lines_in_name_order_and_the_summary(env: dict[str, str]) -> None:
    out = clauz3_test(env, "--no-cache", str(EMAIL))
    assert out.returncode == 0, out.stdout + out.stderr
    lines = out.stdout.splitlines()
    assert lines[:-1] == [f"PASS {name}" for name in EMAIL_CASES]
    assert lines[-1] == f"{len(EMAIL_CASES)} passed, 0 failed"
    # bob_gets_x puts two lambdas on one line: its fail case is violated (as it expects), its pass case proves.
    assert "PASS bob_gets_x_fail.py" in lines and "PASS bob_gets_x_pass.py" in lines


def test_serial_and_parallel_runs_print_the_same(env: dict[str, str]) -> None:
    serial = clauz3_test(env, "--no-cache", "--jobs", "1", str(EMAIL))
    parallel = clauz3_test(env, "--no-cache", "--jobs", "3", str(EMAIL))
    assert serial.returncode == parallel.returncode == 0
    assert serial.stdout == parallel.stdout


def test_pass_case_copied_as_fail_case_is_a_failure(env: dict[str, str], library: Path) -> None:
    cases = library / "cases"
    shutil.copy(cases / "only_pass.py", cases / "only_copy_fail.py")
    out = clauz3_test(env, "--no-cache", str(library))
    assert out.returncode == 1, out.stdout + out.stderr
    lines = out.stdout.splitlines()
    [fail] = [line for line in lines if line.startswith("FAIL ")]
    assert fail.startswith("FAIL only_copy_fail.py: expected ") and fail.endswith(", got proved")
    assert lines[-1] == f"{len(EMAIL_CASES)} passed, 1 failed"


def test_case_without_pass_or_fail_suffix_exits_2_listing_it(env: dict[str, str], library: Path) -> None:
    (library / "cases" / "foo.py").write_text("def main() -> None:\n    pass\n")
    out = clauz3_test(env, "--no-cache", str(library))
    assert out.returncode == 2
    assert out.stdout == ""
    assert out.stderr.startswith("error: ") and "foo.py" in out.stderr
    assert out.stderr.count("\n") == 1


def test_no_cases_folder_exits_2(env: dict[str, str], library: Path) -> None:
    shutil.rmtree(library / "cases")
    out = clauz3_test(env, "--no-cache", str(library))
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.startswith("error: ")


def test_fail_case_refused_with_another_code_than_expected_fails(env: dict[str, str], library: Path) -> None:
    case = library / "cases" / "while_loop_refused_fail.py"
    text = case.read_text()
    assert "# clauz3-expect: refused unsupported-statement" in text
    case.write_text(text.replace("# clauz3-expect: refused unsupported-statement",
                                 "# clauz3-expect: refused import-not-allowed"))
    out = clauz3_test(env, "--no-cache", str(library))
    assert out.returncode == 1, out.stdout + out.stderr
    assert ("FAIL while_loop_refused_fail.py: expected refused import-not-allowed, "
            "got refused unsupported-statement") in out.stdout.splitlines()
    assert out.stdout.splitlines()[-1] == f"{len(EMAIL_CASES) - 1} passed, 1 failed"


def test_fail_case_violating_another_kind_than_expected_fails(env: dict[str, str], library: Path) -> None:
    case = library / "cases" / "at_most_two_sends_fail.py"
    text = case.read_text()
    assert "# clauz3-expect: violated guarantee" in text
    case.write_text(text.replace("# clauz3-expect: violated guarantee", "# clauz3-expect: violated precondition"))
    out = clauz3_test(env, "--no-cache", str(library))
    assert out.returncode == 1
    assert ("FAIL at_most_two_sends_fail.py: expected violated precondition, got violated guarantee"
            in out.stdout.splitlines())


def test_require_coverage_reports_a_helper_without_fail_case(env: dict[str, str], library: Path) -> None:
    assert clauz3_test(env, "--no-cache", "--require-coverage", str(library)).returncode == 0
    (library / "cases" / "bob_gets_x_fail.py").unlink()
    out = clauz3_test(env, "--no-cache", "--require-coverage", str(library))
    assert out.returncode == 1, out.stdout + out.stderr
    lines = out.stdout.splitlines()
    assert [line for line in lines if line.startswith("FAIL")] == ["FAIL coverage email.bob_gets_x: no _fail case"]
    assert lines[-1] == f"{len(EMAIL_CASES) - 1} passed, 1 failed"
    # Without the flag the same library passes.
    assert clauz3_test(env, "--no-cache", str(library)).returncode == 0
