"""prove_case (one `clauz3 prove` process on the PERF-1 tutorial program) and prove_corpus."""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from _common import ROOT, Sample, clauz3

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
        corpus = []
        for _ in range(max(1, reps // 5)):
            start = time.perf_counter()
            for lib in sorted((ROOT / "examples").iterdir()):
                if (lib / "cases").is_dir():
                    clauz3("test", "--no-cache", str(lib), env=env)
            stdlib = ROOT / "src" / "clauz3" / "stdlib"
            if stdlib.is_dir():
                for lib in sorted(stdlib.iterdir()):
                    if (lib / "tests" / "cases").is_dir():
                        clauz3("test", "--no-cache", str(lib), env=env)
            corpus.append(time.perf_counter() - start)
    print(f"  python {sys.version.split()[0]}", file=sys.stderr)
    return [Sample("prove_case", times, target=0.3), Sample("prove_corpus", corpus, target=60.0)]
