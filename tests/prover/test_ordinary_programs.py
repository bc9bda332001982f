"""Ordinary programs real agents write must prove (issue 10), and run as proved.

Each program is proved with ``clauz3 prove --json`` against an example library, then run by the
differential checker (real interpreter, real monitor) so a proof the interpreter contradicts fails.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DB = ROOT / "examples" / "email-from-db"
DB_TRUSTED = DB / "tools" / "db" / "trusted"

HEADER = '''import clauz3
from tools.db.trusted import contracts as db
from tools.db.trusted.effects import db_query, send_email


'''

ONLY_BOB = '@clauz3.guarantee(db.only(["bob@example.com"]))\n'

PROGRAMS: dict[str, str] = {
    "lower_literal": ONLY_BOB + '''def main() -> None:
    send_email("BOB@Example.com".lower(), "hi")
''',
    "upper_then_lower": ONLY_BOB + '''def main() -> None:
    name = "bob"
    loud = name.upper()
    send_email(loud.lower() + "@example.com", loud)
''',
    "strip_and_checks": ONLY_BOB + '''def main() -> None:
    addr = "  bob@example.com\\n".strip()
    if addr.startswith("bob") and addr.endswith(".com"):
        send_email(addr, ", ".join(["a", "b"]))
''',
    "lstrip_rstrip_chars": ONLY_BOB + '''def main() -> None:
    send_email("xxbob@example.comyy".lstrip("x").rstrip("y"), "hi")
''',
    "replace_known": ONLY_BOB + '''def main() -> None:
    template = "NAME@example.com"
    send_email(template.replace("NAME", "bob"), "hi")
''',
    "format_known": ONLY_BOB + '''def main() -> None:
    name = "bob"
    send_email("{}@example.com".format(name), "Hi {0}, {{braces}} {1}".format(name.upper(), 3))
''',
    "split_known": ONLY_BOB + '''def main() -> None:
    parts = "bob,al".split(",")
    send_email(parts[0] + "@example.com", str(len(parts)))
''',
    "split_whitespace": ONLY_BOB + '''def main() -> None:
    words = "  bob   al ".split()
    if len(words) == 2:
        send_email(words[0] + "@example.com", words[1])
''',
    "round_and_str_float": ONLY_BOB + '''def main() -> None:
    total = round(2.675, 2)
    whole = round(2.5)
    send_email("bob@example.com", "total " + str(total) + " " + str(whole) + " " + str(0.1 + 0.2))
''',
    "str_float_exact_text": '''@clauz3.guarantee(db.only(["0.30000000000000004@example.com"]))
def main() -> None:
    send_email(str(0.1 + 0.2) + "@example.com", "hi")
''',
    "round_exact_value": '''@clauz3.guarantee(db.only(["2@example.com"]))
def main() -> None:
    send_email(str(round(2.5)) + "@example.com", str(round(-0.5)))
''',
    "fstring_float": ONLY_BOB + '''def main() -> None:
    rate = 1.5
    send_email("bob@example.com", f"rate {rate} of {1e22}")
''',
    "more_case_and_tests": ONLY_BOB + '''def main() -> None:
    name = "BOB smith".title()
    if "123".isdigit() and not "12a".isdigit() and not name.isalpha() and "bob".islower():
        send_email(name.split()[0].casefold() + "@example.com", name.capitalize().swapcase())
''',
    "fstring_format_specs": '''@clauz3.guarantee(db.only(["bob-3.14-0042-1,234-  x@example.com"]))
def main() -> None:
    pi = 3.14159
    send_email(f"bob-{pi:.2f}-{42:04d}-{1234:,}-{'x':>3}@example.com", f"{len(db_query('users')) / 3:.1f}")
''',
    "empty_list_appended_under_branch": '''@clauz3.guarantee(db.count_at_most(2))
def main() -> None:
    names = []
    if len(db_query("users")) > 3:
        names.append("bob@example.com")
    names.append("al@example.com")
    for n in names:
        send_email(n, "hi")
''',
    "only_where_string_value": '''@clauz3.guarantee(db.only_where({"name": "bob"}))
def main() -> None:
    db_query("users", where={"name": "bob"})
''',
    "only_where_mixed_values": '''@clauz3.guarantee(db.only_where({"age": 3, "consented": True, "name": "bob"}))
def main() -> None:
    where = {"age": 3, "consented": True, "name": "bob"}
    db_query("users", where=where)
''',
}


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    home = tmp_path_factory.mktemp("home")
    return dict(os.environ, CLAUZ3_HOME=str(home / "h"), CLAUZ3_CACHE=str(home / "c"))


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("ordinary")
    out = {}
    for name, body in PROGRAMS.items():
        path = folder / f"{name}.py"
        path.write_text(HEADER + body)
        out[name] = path
    return out


@pytest.fixture(scope="module")
def proofs(written: dict[str, Path], env: dict[str, str]) -> dict[str, dict[str, object]]:
    proc = subprocess.run(
        [sys.executable, "-m", "clauz3", "prove", "--json", "--no-cache", *map(str, written.values()),
         "--trusted-root", str(DB_TRUSTED)],
        capture_output=True, text=True, env=env, cwd=DB, timeout=600)
    doc = json.loads(proc.stdout)
    return {Path(e["path"]).stem: e for e in doc["entries"]}


def _summary(entry: dict[str, object]) -> str:
    if entry.get("status") in ("refused", "error"):
        return "; ".join(f"{d.get('code')}: {d.get('message')}" for d in entry.get("diagnostics", []))  # type: ignore[union-attr]
    return "; ".join(f"{o['conclusion']} {o['description']}: {o.get('result')}"  # type: ignore[index]
                     for o in entry.get("obligations", []) if o["conclusion"] != "proved")  # type: ignore[union-attr,index]


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_ordinary_program_proves(name: str, proofs: dict[str, dict[str, object]]) -> None:
    entry = proofs[name]
    assert entry["status"] == "proved", _summary(entry)


def test_proved_ordinary_programs_run_as_proved(written: dict[str, Path], env: dict[str, str]) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "clauz3.difftest", "--json", "--runs", "4", "--trusted-root", str(DB_TRUSTED),
         "--import-root", str(DB), "--", *map(str, written.values())],
        capture_output=True, text=True, env=env, cwd=DB, timeout=600)
    report = json.loads(proc.stdout)
    assert report["findings"] == [], report["findings"]
    # Every program proved above must have run here: a check over nothing proves nothing.
    assert report["summary"]["programs"] == len(PROGRAMS), report["skipped"]


def test_str_of_float_text_is_exact_not_approximate(written: dict[str, Path], env: dict[str, str],
                                                     tmp_path: Path) -> None:
    """A guarantee that needs a different text for str(0.1 + 0.2) must be violated, not proved."""
    wrong = tmp_path / "wrong.py"
    wrong.write_text(HEADER + '''@clauz3.guarantee(db.only(["0.3@example.com"]))
def main() -> None:
    send_email(str(0.1 + 0.2) + "@example.com", "hi")
''')
    proc = subprocess.run([sys.executable, "-m", "clauz3", "prove", "--json", "--no-cache", str(wrong),
                           "--trusted-root", str(DB_TRUSTED)], capture_output=True, text=True, env=env, cwd=DB,
                          timeout=300)
    entry = json.loads(proc.stdout)["entries"][0]
    guarantee = next(o for o in entry["obligations"] if o["kind"] == "guarantee")
    assert guarantee["conclusion"] == "violated"
    assert "0.30000000000000004@example.com" in guarantee["result"]


def test_empty_list_of_unknown_element_type_hint_names_the_fix(env: dict[str, str], tmp_path: Path) -> None:
    """An empty list no use gives a type to is refused with a hint that names the annotation."""
    prog = tmp_path / "untyped.py"
    prog.write_text(HEADER + '''@clauz3.guarantee(db.count_at_most(1))
def main() -> None:
    xs = []
    send_email(xs[0], "hi")
''')
    proc = subprocess.run([sys.executable, "-m", "clauz3", "prove", "--no-cache", str(prog),
                           "--trusted-root", str(DB_TRUSTED)], capture_output=True, text=True, env=env, cwd=DB,
                          timeout=300)
    assert proc.returncode == 2, proc.stdout
    assert "xs: list[str] = []" in proc.stderr, proc.stderr
    assert "one type on every path" not in proc.stderr


@pytest.mark.parametrize("where", ['{"age": 3, "name": "al"}', '{"age": "3", "name": "bob"}', '{"age": 3}',
                                   '{"age": 3, "name": "bob", "x": 1}'])
def test_dict_literal_that_differs_breaks_only_where(where: str, env: dict[str, str], tmp_path: Path) -> None:
    """Mixed-type dict values compare entry by entry (no sort mismatch), and a different dict is caught."""
    prog = tmp_path / "where.py"
    prog.write_text(HEADER + f'''@clauz3.guarantee(db.only_where({{"age": 3, "name": "bob"}}))
def main() -> None:
    db_query("users", where={where})
''')
    proc = subprocess.run([sys.executable, "-m", "clauz3", "prove", "--json", "--no-cache", str(prog),
                           "--trusted-root", str(DB_TRUSTED)], capture_output=True, text=True, env=env, cwd=DB,
                          timeout=300)
    entry = json.loads(proc.stdout)["entries"][0]
    assert [o["conclusion"] for o in entry["obligations"] if o["kind"] == "guarantee"] == ["violated"]


SYMBOLIC = '''@clauz3.guarantee(db.only(["bob@example.com"]))
def main(user: str, times: int, loud: bool = False) -> None:
    if user == "bob" and 0 < times < 3:
        send_email(user + "@example.com", ("HI" if loud else "hi") + str(times))
'''


def test_target_parameters_without_defaults_are_proved_for_every_value(env: dict[str, str], tmp_path: Path) -> None:
    """MOD-5 (00 DEC-14): `prove` covers every value of the annotated types of a parameter without a default."""
    good = tmp_path / "symbolic.py"
    good.write_text(HEADER + SYMBOLIC)
    proc = subprocess.run([sys.executable, "-m", "clauz3", "prove", "--no-cache", str(good),
                           "--trusted-root", str(DB_TRUSTED)], capture_output=True, text=True, env=env, cwd=DB,
                          timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    bad = tmp_path / "unguarded.py"
    bad.write_text(HEADER + SYMBOLIC.replace('user == "bob" and ', ""))
    proc = subprocess.run([sys.executable, "-m", "clauz3", "prove", "--no-cache", str(bad),
                           "--trusted-root", str(DB_TRUSTED)], capture_output=True, text=True, env=env, cwd=DB,
                          timeout=300)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "main: violated guarantee db.only(addresses=[\"bob@example.com\"])" in proc.stdout
    assert "  inputs: " in proc.stdout and "user=" in proc.stdout


def test_run_refuses_a_target_with_parameters_lacking_defaults(tmp_path: Path) -> None:
    """Only `run` refuses such targets (`target-parameters`): it calls the target with no arguments."""
    from clauz3.approvals.mock import MockApprovalService

    project = tmp_path / "proj"
    shutil.copytree(DB / "tools", project / "tools", ignore=shutil.ignore_patterns("__pycache__"))
    (project / "main.py").write_text(HEADER + SYMBOLIC)
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    with MockApprovalService(data, project) as svc:
        base = {k: v for k, v in os.environ.items() if not k.startswith("CLAUZ3_")}
        base.update(CLAUZ3_HOME=str(data), CLAUZ3_PROOF_CACHE="0", CLAUZ3_APPROVAL_SERVICE=svc.url,
                    CLAUZ3_APPROVAL_TOKEN=svc.token, CLAUZ3_APPROVAL_VERIFY_KEY=svc.verify_key.text)
        proc = subprocess.run([sys.executable, "-m", "clauz3", "run", "--trusted-root", "tools/db/trusted", "main.py"],
                              cwd=project, env=base, capture_output=True, text=True, timeout=300)
        assert proc.returncode == 2, proc.stdout + proc.stderr
        assert "target-parameters" in proc.stderr and "`user`" in proc.stderr, proc.stderr
        assert "Traceback" not in proc.stderr
        assert svc.requests == []


NOTE_EVENTS = '''"""Note events."""

from clauz3.events import Event


class Wrote(Event):
    """A note was written."""

    path: str
'''

NOTE_EFFECTS = '''"""A note effect whose performs lambda names only the parameter its event needs (EVT-2)."""

from tools.notes.trusted.events import Wrote

import clauz3
from clauz3.events import performs


@clauz3.trusted
@clauz3.mock
@performs(lambda path: [Wrote(path)])
def write_note(path: str, text: str, urgent: bool = False) -> None:
    """Write text to the note at path (simulated: nothing is written)."""
    return None
'''

NOTE_CONTRACTS = '''"""Contracts over notes."""

from tools.notes.trusted.events import Wrote

from clauz3.spec import ContractSpec, contract


@contract(description="notes are written only to {paths}")
def only_notes(paths: list[str]) -> ContractSpec:
    return Wrote.all(lambda e: e.path in paths)
'''

NOTE_PROGRAM = '''import clauz3
from tools.notes.trusted import contracts as notes
from tools.notes.trusted.effects import write_note


@clauz3.guarantee(notes.only_notes(["a.txt"]))
def main() -> None:
    write_note("a.txt", "hello")
    write_note("{target}", "again", True)
'''


def _notes_layer(root: Path, effects: str) -> Path:
    trusted = root / "tools" / "notes" / "trusted"
    trusted.mkdir(parents=True)
    (trusted / "events.py").write_text(NOTE_EVENTS)
    (trusted / "effects.py").write_text(effects)
    (trusted / "contracts.py").write_text(NOTE_CONTRACTS)
    return trusted


def test_performs_lambda_may_name_a_subset_of_the_effect_parameters(env: dict[str, str], tmp_path: Path) -> None:
    """EVT-2 (00 DEC-14): the lambda need not mirror every parameter; the events still carry the named ones."""
    _notes_layer(tmp_path, NOTE_EFFECTS)
    good, bad = tmp_path / "good.py", tmp_path / "bad.py"
    good.write_text(NOTE_PROGRAM.replace("{target}", "a.txt"))
    bad.write_text(NOTE_PROGRAM.replace("{target}", "b.txt"))
    proc = subprocess.run([sys.executable, "-m", "clauz3", "prove", "--json", "--no-cache", str(good), str(bad),
                           "--trusted-root", "tools/notes/trusted"], capture_output=True, text=True, env=env,
                          cwd=tmp_path, timeout=300)
    assert proc.stderr == "", proc.stderr
    entries = {Path(e["path"]).stem: e for e in json.loads(proc.stdout)["entries"]}
    assert entries["good"]["status"] == "proved"
    assert [o["conclusion"] for o in entries["bad"]["obligations"]] == ["violated"]
    lint = subprocess.run([sys.executable, "-m", "clauz3", "lint", "tools"], capture_output=True, text=True, env=env,
                          cwd=tmp_path, timeout=300)
    assert "C3L010" not in lint.stdout + lint.stderr, lint.stdout
    diff = subprocess.run([sys.executable, "-m", "clauz3.difftest", "--json", "--runs", "2", "--trusted-root",
                           "tools/notes/trusted", "--import-root", str(tmp_path), "--", str(good)],
                          capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300)
    report = json.loads(diff.stdout)
    assert report["findings"] == [] and report["summary"]["programs"] == 1, report


def test_performs_lambda_naming_a_parameter_the_effect_lacks_is_a_layer_error(env: dict[str, str],
                                                                              tmp_path: Path) -> None:
    _notes_layer(tmp_path, NOTE_EFFECTS.replace("lambda path: [Wrote(path)]", "lambda file: [Wrote(file)]"))
    prog = tmp_path / "good.py"
    prog.write_text(NOTE_PROGRAM.replace("{target}", "a.txt"))
    proc = subprocess.run([sys.executable, "-m", "clauz3", "prove", "--no-cache", str(prog),
                           "--trusted-root", "tools/notes/trusted"], capture_output=True, text=True, env=env,
                          cwd=tmp_path, timeout=300)
    assert proc.returncode == 2
    assert "`file`" in proc.stderr and "write_note" in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr


STORE_SCHEMAS = '''"""Rows of the store."""

import clauz3


class Item(clauz3.Row):
    """One stored item."""

    name: str
    count: int
'''

STORE_EFFECTS = '''"""An insert-style effect on a database file anywhere on disk (simulated)."""

from tools.store.trusted.schemas import Item

import clauz3


@clauz3.trusted
@clauz3.mock
@clauz3.requires(lambda db, row: row.count >= 0, message="count must not be negative")
def insert_item(db: str, row: Item) -> None:
    """Insert row into the items table of the database file db (simulated: nothing is written)."""
    return None
'''

STORE_CONTRACTS = '''"""Contracts over the store."""

from tools.store.trusted.effects import insert_item

from clauz3 import FilePath
from clauz3.spec import ContractSpec, contract, effect


@contract(description="rows go only to the database file {path}")
def only_database(path: FilePath) -> ContractSpec:
    return effect(insert_item).all(lambda e: e.db == path)


@contract(description="at most {n} rows are inserted")
def inserts_at_most(n: int) -> ContractSpec:
    return effect(insert_item).count() <= n
'''

STORE_PROGRAM = '''import clauz3
from clauz3 import FilePath
from tools.store.trusted import contracts as store
from tools.store.trusted.effects import insert_item
from tools.store.trusted.schemas import Item


@clauz3.guarantee(store.only_database(FilePath("/var/data/app.db")))
@clauz3.guarantee(store.inserts_at_most(2))
def main() -> None:
    insert_item("/var/data/app.db", Item(name="apple", count=3))
    insert_item("{second}", Item(name="pear", count=1))
'''


def test_absolute_database_file_paths_and_constructed_rows(env: dict[str, str], tmp_path: Path) -> None:
    """A FilePath about a file anywhere may be absolute; a program may build a declared row to insert it."""
    trusted = tmp_path / "tools" / "store" / "trusted"
    trusted.mkdir(parents=True)
    (trusted / "schemas.py").write_text(STORE_SCHEMAS)
    (trusted / "effects.py").write_text(STORE_EFFECTS)
    (trusted / "contracts.py").write_text(STORE_CONTRACTS)
    good, bad = tmp_path / "good.py", tmp_path / "bad.py"
    good.write_text(STORE_PROGRAM.replace("{second}", "/var/data/app.db"))
    bad.write_text(STORE_PROGRAM.replace("{second}", "/tmp/other.db"))
    proc = subprocess.run([sys.executable, "-m", "clauz3", "prove", "--json", "--no-cache", str(good), str(bad),
                           "--trusted-root", "tools/store/trusted"], capture_output=True, text=True, env=env,
                          cwd=tmp_path, timeout=300)
    assert proc.stderr == "", proc.stderr
    entries = {Path(e["path"]).stem: e for e in json.loads(proc.stdout)["entries"]}
    assert entries["good"]["status"] == "proved", _summary(entries["good"])
    verdicts = {o["kind"] + " " + (o.get("call") or ""): o["conclusion"] for o in entries["bad"]["obligations"]}
    assert verdicts['guarantee store.only_database(path="/var/data/app.db")'] == "violated", verdicts
    diff = subprocess.run([sys.executable, "-m", "clauz3.difftest", "--json", "--runs", "2", "--trusted-root",
                           "tools/store/trusted", "--import-root", str(tmp_path), "--", str(good)],
                          capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300)
    report = json.loads(diff.stdout)
    assert report["findings"] == [] and report["summary"]["programs"] == 1, report


def test_a_built_row_must_get_exactly_its_field_types(env: dict[str, str], tmp_path: Path) -> None:
    """clauz3.Row refuses a bool for an int field: refused when known, an obligation when path-dependent."""
    trusted = tmp_path / "tools" / "store" / "trusted"
    trusted.mkdir(parents=True)
    (trusted / "schemas.py").write_text(STORE_SCHEMAS)
    (trusted / "effects.py").write_text(STORE_EFFECTS)
    (trusted / "contracts.py").write_text(STORE_CONTRACTS)
    head = STORE_PROGRAM.split("@clauz3.guarantee")[0]
    cases = {
        "literal_bool": "def main() -> None:\n    insert_item(\"/d.db\", Item(name=\"a\", count=True))\n",
        "maybe_bool": "def main(flag: bool) -> None:\n    insert_item(\"/d.db\", Item(name=\"a\", count=True if flag else 2))\n",
        "ints": "def main(flag: bool) -> None:\n    insert_item(\"/d.db\", Item(name=\"a\", count=1 if flag else 2))\n",
    }
    for name, body in cases.items():
        (tmp_path / f"{name}.py").write_text(head + "@clauz3.guarantee(store.inserts_at_most(1))\n" + body)
    proc = subprocess.run([sys.executable, "-m", "clauz3", "prove", "--json", "--no-cache",
                           *[str(tmp_path / f"{n}.py") for n in cases], "--trusted-root", "tools/store/trusted"],
                          capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300)
    entries = {Path(e["path"]).stem: e for e in json.loads(proc.stdout)["entries"]}
    assert entries["literal_bool"]["status"] == "refused"
    assert "field `count` of `Item` must be int, got bool" in proc.stderr
    maybe = {o["kind"] + " " + str(o.get("conclusion")) for o in entries["maybe_bool"]["obligations"]}
    assert "exception violated" in maybe, entries["maybe_bool"]
    assert entries["ints"]["status"] == "proved", _summary(entries["ints"])



@pytest.mark.parametrize("field", ["{x:d}", "{x:.2}", "{x:c}", "{x:{w}}", "{x!r}"])
def test_format_specs_that_could_raise_are_refused(field: str, env: dict[str, str], tmp_path: Path) -> None:
    prog = tmp_path / "spec.py"
    prog.write_text(HEADER + "@clauz3.guarantee(db.count_at_most(1))\ndef main() -> None:\n    x = 1.5\n    w = 3\n"
                    f"    send_email(\"bob@example.com\", f\"{field}\")\n")
    proc = subprocess.run([sys.executable, "-m", "clauz3", "prove", "--no-cache", str(prog),
                           "--trusted-root", str(DB_TRUSTED)], capture_output=True, text=True, env=env, cwd=DB,
                          timeout=300)
    assert proc.returncode == 2, proc.stdout
    assert "(hint: " in proc.stderr and "Traceback" not in proc.stderr


def test_format_spec_on_a_huge_int_is_an_obligation(env: dict[str, str], tmp_path: Path) -> None:
    """Not left to CPython's environment-dependent digit limit: a fixed rule, proved or violated."""
    prog = tmp_path / "huge.py"
    prog.write_text(HEADER + "@clauz3.guarantee(db.count_at_most(1))\ndef main(n: int) -> None:\n"
                    "    send_email(\"bob@example.com\", f\"{n:,}\")\n")
    proc = subprocess.run([sys.executable, "-m", "clauz3", "prove", "--no-cache", str(prog),
                           "--trusted-root", str(DB_TRUSTED)], capture_output=True, text=True, env=env, cwd=DB,
                          timeout=300)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "main: violated exception ValueError at line 8: f-string field with a format spec" in proc.stdout
    small = tmp_path / "small.py"
    small.write_text(prog.read_text().replace("def main(n: int) -> None:\n",
                                              "def main(n: int) -> None:\n    n = n % 1000\n"))
    proc = subprocess.run([sys.executable, "-m", "clauz3", "prove", "--no-cache", str(small),
                           "--trusted-root", str(DB_TRUSTED)], capture_output=True, text=True, env=env, cwd=DB,
                          timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
