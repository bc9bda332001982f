"""Messages a person can trust (issue 10): `clauz3 prove` in real subprocesses.

Guarantees are named by library and helper, a failed proof never reads as proved, loop paths
show the iteration, hints fit the error, and no internal name reaches the person.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EMAIL_TRUSTED = str(ROOT / "examples" / "email" / "tools" / "email" / "trusted")
DB = ROOT / "examples" / "email-from-db"
DB_TRUSTED = str(DB / "tools" / "db" / "trusted")

ALIASED = '''import clauz3
from tools.email.trusted import contracts as limits
from tools.email.trusted.effects import send_email


@clauz3.guarantee(limits.only(["bob@example.com"]))
@clauz3.guarantee(limits.at_most(1))
def main() -> None:
    send_email("bob@example.com", "one")
    send_email("bob@example.com", "two")
'''

DB_HEADER = '''import clauz3
from tools.db.trusted import contracts as db
from tools.db.trusted.effects import db_query, send_email


'''

# Words that belong to the prover's inside: a person must never read them.
INTERNAL = re.compile(r"NotAnalysable|Z3Exception|z3\.|sort mismatch|sorts? (String|Int|Bool|FP)|Traceback|"
                      r"KeyError|AttributeError|TypeError:|internal encoding|FPSort|SeqSort")


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return dict(os.environ, CLAUZ3_HOME=str(tmp_path / "home"), CLAUZ3_CACHE=str(tmp_path / "cache"))


def prove(env: dict[str, str], path: Path, trusted: str, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "clauz3", "prove", "--no-cache", *extra, str(path),
                           "--trusted-root", trusted], capture_output=True, text=True, env=env, cwd=ROOT,
                          timeout=300)


def test_guarantees_are_named_by_library_and_helper_never_the_alias(tmp_path: Path, env: dict[str, str]) -> None:
    path = tmp_path / "aliased.py"
    path.write_text(ALIASED)
    out = prove(env, path, EMAIL_TRUSTED)
    assert out.returncode == 1, out.stderr
    assert "main: violated guarantee email.at_most(count=1)" in out.stdout.splitlines()
    assert 'main: proved guarantee email.only(addresses=["bob@example.com"])' in out.stdout.splitlines()
    assert "limits." not in out.stdout


def test_a_failed_proof_says_not_proved_before_any_proved_line(tmp_path: Path, env: dict[str, str]) -> None:
    path = tmp_path / "aliased.py"
    path.write_text(ALIASED)
    lines = prove(env, path, EMAIL_TRUSTED).stdout.splitlines()
    verdicts = [x for x in lines if x.startswith("main: ")]
    assert verdicts[0] == "main: not proved: 1 of 4 checks failed"
    first_proved = next(k for k, x in enumerate(verdicts) if x.startswith("main: proved "))
    assert all(not x.startswith("main: proved ") for x in verdicts[:first_proved])
    assert verdicts[1].startswith("main: violated guarantee")
    assert first_proved == 2


def test_a_proved_program_prints_no_failure_summary(tmp_path: Path, env: dict[str, str]) -> None:
    path = tmp_path / "once.py"
    path.write_text(ALIASED.replace('    send_email("bob@example.com", "two")\n', ""))
    out = prove(env, path, EMAIL_TRUSTED)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "not proved" not in out.stdout
    assert all(x.startswith("main: proved ") for x in out.stdout.splitlines())


def test_unrolled_loop_path_shows_the_iteration(tmp_path: Path, env: dict[str, str]) -> None:
    path = tmp_path / "loop.py"
    path.write_text(DB_HEADER + '''@clauz3.guarantee(db.only(["bob@example.com"]))
def main() -> None:
    for name in ["bob", "al", "cy"]:
        if name != "bob":
            if name == "cy":
                send_email(name + "@example.com", "hi")
''')
    out = prove(env, path, DB_TRUSTED)
    assert out.returncode == 1
    path_line = next(x for x in out.stdout.splitlines() if x.startswith("  path:"))
    assert 'line 9 name != "bob" (iteration 1): false' in path_line
    assert 'line 10 name == "cy" (iteration 3): true' in path_line


# Programs whose proof cannot be completed, each reaching a different place where an internal
# failure used to be shown as it was.
UNDECIDABLE = {
    "mixed_dict_lookup": '''@clauz3.guarantee(db.count_at_most(1))
def main() -> None:
    rows = db_query("users")
    d = {"a": 1, "b": "x"}
    key = "a" if len(rows) > 2 else "b"
    v = d[key]
    if v == 1:
        send_email("bob@example.com", "one")
''',
    "object_element_mix": '''@clauz3.guarantee(db.count_at_most(1))
def main() -> None:
    rows = db_query("users")
    xs = [1, "two"] if len(rows) > 1 else ["two", 1]
    if xs[0] == 1:
        send_email("bob@example.com", "one")
''',
}


@pytest.mark.parametrize("name", sorted(UNDECIDABLE))
def test_no_internal_names_reach_the_person(name: str, tmp_path: Path, env: dict[str, str]) -> None:
    path = tmp_path / f"{name}.py"
    path.write_text(DB_HEADER + UNDECIDABLE[name])
    for extra in ((), ("--json",)):
        out = prove(env, path, DB_TRUSTED, *extra)
        text = out.stdout + out.stderr
        assert not INTERNAL.search(text), text
        assert out.returncode in (0, 1, 2), text


def test_type_error_hints_fit_the_error(tmp_path: Path, env: dict[str, str]) -> None:
    path = tmp_path / "typed.py"
    path.write_text(DB_HEADER + '''@clauz3.guarantee(db.count_at_most(1))
def main() -> None:
    send_email(3, "hi")
''')
    out = prove(env, path, DB_TRUSTED)
    assert out.returncode == 2
    assert "argument `addr` of `send_email` must be str, got int" in out.stderr
    assert "one type on every path" not in out.stderr
    assert "(hint: convert it with str(...))" in out.stderr


@pytest.mark.parametrize(("body", "hint"), [
    ("    for c in 3:\n        pass\n", "iterate a list"),
    ('    x = 3\n    x[0] = 1\n', "build the new value and assign it"),
    ('    n = "a" - 1\n', "convert one side first"),
    ('    a, b = (1, 2, 3)\n', "unpack into as many names"),
    ('    send_email(addr="bob@example.com")\n', "pass every parameter that has no default"),
    ('    send_email("bob@example.com", "hi", cc="x")\n', "lists the parameters"),
    ("    n = len(1.5)\n", "len() takes a str, list"),
])
def test_each_type_error_gets_a_hint_that_fits(body: str, hint: str, tmp_path: Path, env: dict[str, str]) -> None:
    path = tmp_path / "typed.py"
    path.write_text(DB_HEADER + "@clauz3.guarantee(db.count_at_most(1))\ndef main() -> None:\n" + body)
    out = prove(env, path, DB_TRUSTED)
    assert out.returncode == 2, out.stdout
    assert hint in out.stderr, out.stderr
    assert "one type on every path" not in out.stderr


def test_a_run_whose_proof_fails_names_the_guarantee_by_library_and_helper(tmp_path: Path) -> None:
    """`clauz3 run` refuses before asking anyone, and reads as not proved, in library terms."""
    import shutil

    from clauz3.approvals.mock import MockApprovalService

    project = tmp_path / "proj"
    shutil.copytree(ROOT / "examples" / "email" / "tools", project / "tools",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (project / "main.py").write_text(ALIASED)
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    with MockApprovalService(data, project) as svc:
        base = {k: v for k, v in os.environ.items() if not k.startswith("CLAUZ3_")}
        base.update(CLAUZ3_HOME=str(data), CLAUZ3_PROOF_CACHE="0", CLAUZ3_APPROVAL_SERVICE=svc.url,
                    CLAUZ3_APPROVAL_TOKEN=svc.token, CLAUZ3_APPROVAL_VERIFY_KEY=svc.verify_key.text)
        out = subprocess.run([sys.executable, "-m", "clauz3", "run", "--trusted-root", "tools/email/trusted",
                              "main.py"], cwd=project, env=base, capture_output=True, text=True, timeout=300)
        assert out.returncode == 1, out.stdout + out.stderr
        assert out.stdout.splitlines()[0] == "main: not proved: 1 of 4 checks failed"
        assert "not proved (violated) guarantee email.at_most(count=1)" in out.stderr
        assert "limits." not in out.stdout + out.stderr
        assert svc.requests == []


def test_a_program_the_prover_cannot_encode_says_where_and_why_once(tmp_path: Path, env: dict[str, str]) -> None:
    path = tmp_path / "mixed.py"
    path.write_text(DB_HEADER + UNDECIDABLE["mixed_dict_lookup"])
    lines = prove(env, path, DB_TRUSTED).stdout.splitlines()
    assert lines[0] == "main: not proved: 2 of 2 checks could not be decided"
    stuck = next(x for x in lines if "not analysable" in x)
    assert stuck.startswith("main: unknown exception not analysable at line 11 (unsupported: ")
    assert stuck.count("may be a str or an int") == 1, stuck
