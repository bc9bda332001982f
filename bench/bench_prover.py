

"""prove_case (one `clauz3 prove` process on the PERF-1 tutorial program) and prove_corpus (`clauz3 test
--no-cache` over every bundled library, ≥ 5 passes; unmeasured if any library's cases fail)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import ROOT, Sample, clauz3, unmeasured

PERF1 = '''import clauz3
from tools.email.trusted import contracts as emails
from tools.email.trusted.effects import send_email


@clauz3.guarantee(emails.only(["bob@example.com"]))
@clauz3.guarantee(emails.at_most(1))
@clauz3.guarantee(emails.unique_recipients())
def main() -> None:
    send_email("bob@example.com", "Hi from clauz3")
'''


def collect(reps: int) -> list[Sample]:
    example = ROOT / "examples" / "email"
    with tempfile.TemporaryDirectory() as tmp:
        program = Path(tmp) / "main.py"
        program.write_text(PERF1)
        env = {"CLAUZ3_HOME": tmp + "/home", "CLAUZ3_CACHE": tmp + "/cache"}
        args = ("prove", "--no-cache", "--trusted-root", "tools/email/trusted", str(program))
        clauz3(*args, env=env, cwd=example)  # warm-up (page cache, .pyc)
        times = []
        for _ in range(max(reps, 10)):
            elapsed, code = clauz3(*args, env=env, cwd=example)
            if code != 0:
                raise RuntimeError(f"PERF-1 program did not prove (exit {code})")
            times.append(elapsed)
        corpus, failures, cases = _corpus(reps, env)
    print(f"  python {sys.version.split()[0]}; prove_corpus: {len(_libraries())} libraries, {cases} cases a pass",
          file=sys.stderr)
    if failures:
        return [Sample("prove_case", times, target=0.3),
                unmeasured("prove_corpus", "clauz3 test failed for " + "; ".join(failures))]
    return [Sample("prove_case", times, target=0.3), Sample("prove_corpus", corpus, target=60.0)]


def _libraries() -> list[Path]:
    """Every bundled library with proof cases: examples/*/cases and the stdlib's */tests/cases."""
    libs = [lib for lib in sorted((ROOT / "examples").iterdir()) if (lib / "cases").is_dir()]
    stdlib = ROOT / "src" / "clauz3" / "stdlib"
    return libs + [lib for lib in sorted(stdlib.iterdir()) if (lib / "tests" / "cases").is_dir()]


def _corpus(reps: int, env: dict[str, str], libs: list[Path] | None = None) -> tuple[list[float], list[str], int]:
    """(whole-corpus times, failures, cases per pass): a library whose `clauz3 test` fails makes the
    figure unmeasured, since a corpus that did not prove is not the corpus timed."""
    libs = _libraries() if libs is None else libs
    if not libs:
        return [], ["no library with proof cases was found"], 0
    full_env = {k: v for k, v in dict(os.environ, **env).items() if k != "PYTHONDONTWRITEBYTECODE"}
    times: list[float] = []
    failures: list[str] = []
    cases = 0
    for _ in range(max(reps, 5)):
        start = time.perf_counter()
        cases = 0
        for lib in libs:
            done = subprocess.run([sys.executable, "-m", "clauz3", "test", "--no-cache", str(lib)], cwd=ROOT,
                                  env=full_env, capture_output=True, text=True)
            tally = re.search(r"(\d+) passed, (\d+) failed", done.stdout)
            if done.returncode != 0 or tally is None or tally.group(1) == "0":
                last = (done.stdout.strip().splitlines() or done.stderr.strip().splitlines() or ["no output"])[-1]
                failures.append(f"{_shown(lib)} (exit {done.returncode}: {last[:200]})")
            else:
                cases += int(tally.group(1))
        times.append(time.perf_counter() - start)
        if failures:
            break
    return times, failures, cases


def _shown(lib: Path) -> str:
    return str(lib.relative_to(ROOT)) if lib.is_relative_to(ROOT) else str(lib)
