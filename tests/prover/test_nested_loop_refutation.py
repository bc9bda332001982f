"""A count over nested symbolic loops is refuted when it is broken, and stays undecided (never refuted)
when the only breaking runs it could build are impossible (two loops over one list).

The mutation check (06 QB-23) found ``count_at_most(9999)`` over two 100-row queries undecided: the
bound was over-approximated and no run breaking it was built, although every row may pass the
condition. Runs where each list's rows all equal its row at the free index break it for real.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LIB = ROOT / "examples" / "email-from-db"

HEAD = """import clauz3
from tools.db.trusted import contracts as db
from tools.db.trusted.effects import db_query, send_email


"""

TWO_LISTS = HEAD + """@clauz3.guarantee(db.count_at_most({n}))
def main() -> None:
    admins = db_query("users", where={{"role": "admin"}})
    members = db_query("users", where={{"consented": True}})
    for admin in admins:
        for member in members:
            if "@" in member.email:
                send_email(member.email, "Meet " + admin.email)
"""

# 100 × 99 = 9,900 calls at most: the rows of one list cannot all equal two different rows of it.
ONE_LIST = HEAD + """@clauz3.guarantee(db.count_at_most({n}))
def main() -> None:
    users = db_query("users", where={{"consented": True}})
    for a in users:
        for b in users:
            if a.email != b.email and "@" in b.email:
                send_email(b.email, "Meet " + a.email)
"""


def prove(tmp: Path, source: str) -> str:
    lib = tmp / "lib"
    if not lib.exists():
        shutil.copytree(LIB / "tools", lib / "tools")
    (lib / "program.py").write_text(source)
    proc = subprocess.run([sys.executable, "-m", "clauz3", "prove", "--no-cache", "--trusted-root",
                           "tools/db/trusted", "program.py"], cwd=lib, capture_output=True, text=True, timeout=300)
    return proc.stdout + proc.stderr


def test_nested_loops_over_two_lists_break_a_count_below_their_product(tmp_path: Path) -> None:
    out = prove(tmp_path, TWO_LISTS.format(n=9999))
    assert "violated guarantee db.count_at_most(n=9999)" in out, out
    assert "10000 matching calls" in out, out


def test_nested_loops_over_two_lists_prove_their_product(tmp_path: Path) -> None:
    out = prove(tmp_path, TWO_LISTS.format(n=10000))
    assert "proved guarantee db.count_at_most(n=10000)" in out, out


def test_nested_loops_over_one_list_are_never_refuted_by_an_impossible_run(tmp_path: Path) -> None:
    # The real maximum is 9,900: 9,900 holds, so a "violated" verdict here would be false.
    out = prove(tmp_path, ONE_LIST.format(n=9900))
    assert "violated" not in out, out
    assert "unknown guarantee db.count_at_most(n=9900)" in out, out
