"""00 DEC-13, issue 10 acceptance 4: no environment variable or flag in src/ changes a verdict.

Three checks: the source of the packages on the verdict path reads no environment variable beyond
a short list of settings that cannot turn an unproved obligation into a proved one (each with its
reason); no command has a hidden option; and ``clauz3 prove`` gives identical verdicts in a clean
environment and in a hostile one where every ``CLAUZ3_*`` name that appears anywhere in src/ (and
the old test-hook names, and ``PYTHONHASHSEED``) is set to an odd value.
"""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SRC = REPO / "src" / "clauz3"
EMAIL = REPO / "examples" / "email"
GEN = Path(__file__).resolve().parent / "gen_layers"

# Packages and modules whose code decides, caches or reports a verdict.
VERDICT_PATH = ["language", "prover", "interp", "runs", "approvals", "commands/prove.py", "commands/test.py",
                "commands/run.py", "difftest"]

# Every variable the verdict path may read, and why it cannot make an unproved obligation proved.
SETTINGS = {
    "CLAUZ3_PROOF_CACHE": "0 turns the proof cache off; entries are keyed by engine, program and layer",
    "CLAUZ3_OBLIGATION_TIMEOUT_SECONDS": "less time only turns proved into unknown, never the reverse",
    "CLAUZ3_PROOF_TIMEOUT_SECONDS": "less time only turns proved into a deadline error, never the reverse",
    "CLAUZ3_HOME": "where data lives",
    "CLAUZ3_CACHE": "where the proof cache lives",
    "XDG_DATA_HOME": "where data lives",
    "XDG_CACHE_HOME": "where the proof cache lives",
    "CLAUZ3_SANDBOX": "off runs without Landlock after proving (shown on the card); never a proof input",
    "CLAUZ3_REQUIRE_SANDBOX": "refuses to run without the sandbox; never a proof input",
    "CLAUZ3_DEBUG": "prints tracebacks of internal errors",
    "CLAUZ3_APPROVAL_SERVICE": "where the approval service listens (approval, not proof)",
    "CLAUZ3_APPROVAL_TOKEN": "submission credential (approval, not proof)",
    "CLAUZ3_APPROVAL_VERIFY_KEY": "receipt verification key (approval, not proof)",
    "CLAUZ3_APPROVAL_SIGNING_KEY": "receipt signing key (approval, not proof)",
    "CLAUZ3_APPROVAL_DECISION_TOKEN": "decision credential (approval, not proof)",
    "CLAUZ3_FILE_JOURNAL": "the undo journal of a run's file writes",
    "PYTHONPATH": "read only to refuse a run whose import path holds the workspace (issue 11 §4)",
}
# Functions that read a variable named by their argument (every caller passes a SETTINGS name, checked
# below), or that copy an allow-listed or whole environment into a child without deciding anything.
GENERIC_READERS = {("prover/pipeline.py", "timeout_from_env"), ("approvals/service.py", "env_secret"),
                   ("commands/run.py", "_secret_text"), ("prover/entailment.py", "child_env"),
                   ("commands/test.py", "_run_recipe"), ("runs/sandbox.py", "probe"),
                   ("runs/envsecret.py", "take")}
NAMED_READERS = {"timeout_from_env": 0, "env_secret": 0, "_secret_text": 1, "take": 0}
FORBIDDEN = re.compile(r"CLAUZ3_\w*(TEST|DROP|SKIP|UNSAFE|ASSUME|NO_PROVE|NOPROVE|FORCE|BYPASS)\w*")


def verdict_files() -> list[Path]:
    files: list[Path] = []
    for part in VERDICT_PATH:
        p = SRC / part
        files += sorted(p.rglob("*.py")) if p.is_dir() else [p]
    assert len(files) > 40, files  # the scan must run on the real tree, not on nothing
    return files


def environment_reads(path: Path) -> list[tuple[str, int, str | None]]:
    """(function, line, name or None when not a literal) for each environment read in ``path``."""
    tree = ast.parse(path.read_text(), str(path))
    found: list[tuple[str, int, str | None]] = []

    def is_environ(node: ast.AST) -> bool:
        return (isinstance(node, ast.Attribute) and node.attr == "environ") or (
            isinstance(node, ast.Name) and node.id == "environ")

    def name_of(node: ast.AST | None) -> str | None:
        return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None

    def visit(node: ast.AST, owner: str) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            owner = node.name
        if isinstance(node, ast.Call):
            f = node.func
            first = node.args[0] if node.args else None
            if isinstance(f, ast.Attribute) and f.attr in ("get", "pop", "setdefault") and is_environ(f.value):
                found.append((owner, node.lineno, name_of(first)))
            elif isinstance(f, ast.Attribute) and f.attr == "getenv":
                found.append((owner, node.lineno, name_of(first)))
            elif isinstance(f, ast.Attribute) and f.attr in ("items", "keys", "copy") and is_environ(f.value):
                found.append((owner, node.lineno, None))
            elif isinstance(f, ast.Name) and f.id == "dict" and first is not None and is_environ(first):
                found.append((owner, node.lineno, None))
        elif isinstance(node, ast.Subscript) and is_environ(node.value):
            found.append((owner, node.lineno, name_of(node.slice)))
        elif isinstance(node, ast.Compare) and any(is_environ(c) for c in node.comparators):
            found.append((owner, node.lineno, name_of(node.left)))
        for child in ast.iter_child_nodes(node):
            visit(child, owner)

    visit(tree, "<module>")
    return found


def test_the_verdict_path_reads_only_settings_that_cannot_prove_anything() -> None:
    unknown: list[str] = []
    reads = 0
    for path in verdict_files():
        rel = path.relative_to(SRC).as_posix()
        for owner, line, name in environment_reads(path):
            reads += 1
            if name is None and (rel, owner) in GENERIC_READERS:
                continue
            if name is None or name not in SETTINGS:
                unknown.append(f"{rel}:{line} in {owner}: reads {name or 'a computed name'}")
    assert reads >= 3, "the scan found no environment read at all: it is not looking at the code"
    assert not unknown, "environment reads on the verdict path that are not known settings:\n" + "\n".join(unknown)


def test_every_generic_reader_is_called_with_a_setting() -> None:
    calls: list[str] = []
    for path in verdict_files():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in NAMED_READERS:
                k = NAMED_READERS[node.func.id]
                arg = node.args[k] if len(node.args) > k else None
                name = arg.value if isinstance(arg, ast.Constant) else None
                calls.append(f"{path.relative_to(SRC)}:{node.lineno}:{name}")
                assert name in SETTINGS, f"{calls[-1]} reads a variable that is not a known setting"
    assert len(calls) >= 3, f"too few calls of the generic readers were found: {calls}"


def test_no_switch_name_and_no_hidden_option_anywhere_in_src() -> None:
    hits: list[str] = []
    for path in sorted(SRC.rglob("*.py")):
        text = path.read_text()
        hits += [f"{path.relative_to(SRC)}: {m.group(0)}" for m in FORBIDDEN.finditer(text)]
        if "SUPPRESS" in text and re.search(r"help\s*=\s*argparse\.SUPPRESS", text):
            hits.append(f"{path.relative_to(SRC)}: a hidden command-line option (help=argparse.SUPPRESS)")
    assert not hits, "\n".join(hits)


def names_in_src() -> set[str]:
    names: set[str] = set()
    for path in SRC.rglob("*"):
        if path.suffix in (".py", ".yaml", ".md", ".js", ".html") and path.is_file():
            names.update(re.findall(r"CLAUZ3_[A-Z0-9_]*", path.read_text(errors="replace")))
    assert len(names) >= 10, names
    return names


def hostile_environment(base: dict[str, str], tmp: Path) -> dict[str, str]:
    env = dict(base)
    odd = ["1", "yes", "at_most", "-1", "../../etc", "off", "true", "*"]
    for k, name in enumerate(sorted(names_in_src() | {"CLAUZ3_TESTING", "CLAUZ3_TEST_DROP_GUARANTEE",
                                                        "CLAUZ3_TEST_DROP_OBLIGATION"})):
        name = name + "X" if name.endswith("_") else name
        if name.endswith("TIMEOUT_SECONDS"):
            env[name] = "600"  # odd but valid: an invalid one is a usage error, not a verdict
        elif name in ("CLAUZ3_HOME", "CLAUZ3_CACHE"):
            (tmp / name).mkdir(mode=0o700)
            env[name] = str(tmp / name)
        elif name.startswith("CLAUZ3_APPROVAL") or name in ("CLAUZ3_BRIDGE_TICKET", "CLAUZ3_SESSION_LIFETIME_SOCKET"):
            env[name] = "x"
        else:
            env[name] = odd[k % len(odd)]
    env["CLAUZ3_TESTING"] = "1"
    env["CLAUZ3_TEST_DROP_GUARANTEE"] = "at_most"
    env["PYTHONHASHSEED"] = "4242"
    return env


SETS = '''import clauz3
from tools.gen.trusted import contracts as g
from tools.gen.trusted.effects import pay, send


@clauz3.guarantee(g.max_pay({limit}))
@clauz3.guarantee(g.never_to("b"))
def main() -> None:
    for x in {{2, 9}}:
        pay(x)
        break
    for s in {{"a", "b", "c"}}:
        send(s, 1)
        break
    n = float("nan")
    if n in [n]:
        pay(1)
'''


def verdicts(env: dict[str, str], gen_dir: Path) -> list[tuple[str, str, list[tuple[str, str]]]]:
    out: list[tuple[str, str, list[tuple[str, str]]]] = []
    runs = [(["--trusted-root", str(EMAIL / "tools" / "email" / "trusted")], sorted(EMAIL.glob("cases/*.py"))),
            (["--trusted-root", str(GEN / "tools" / "gen" / "trusted"), "--import-root", str(GEN)],
             sorted(gen_dir.glob("*.py")))]
    for roots, files in runs:
        assert files
        proc = subprocess.run([sys.executable, "-m", "clauz3", "prove", "--json", "--no-cache", *roots,
                               *map(str, files)], capture_output=True, text=True, env=env, cwd=REPO, timeout=600,
                              check=False)
        doc = json.loads(proc.stdout)
        for e in doc["entries"]:
            out.append((Path(e["path"]).name, e["status"],
                        [(o["kind"], o["conclusion"]) for o in e["obligations"]]))
    return out


def test_verdicts_are_identical_under_a_hostile_environment(tmp_path: Path) -> None:
    gen_dir = tmp_path / "gen"
    gen_dir.mkdir()
    for limit in (0, 2, 9, 11):
        (gen_dir / f"sets_{limit}.py").write_text(SETS.format(limit=limit))
    clean = {k: v for k, v in os.environ.items() if not k.startswith("CLAUZ3_")}
    home = tmp_path / "home"
    home.mkdir(mode=0o700)
    clean.update(CLAUZ3_HOME=str(home), PYTHONHASHSEED="0")
    hostile_dir = tmp_path / "hostile"
    hostile_dir.mkdir()
    quiet = verdicts(clean, gen_dir)
    loud = verdicts(hostile_environment(clean, hostile_dir), gen_dir)
    assert loud == quiet
    statuses = {status for _, status, _ in quiet}
    conclusions = {c for _, _, obs in quiet for _, c in obs}
    # The comparison means something only if it covers proved and unproved verdicts alike.
    assert "proved" in statuses and "not_proved" in statuses, statuses
    assert {"proved", "violated"} <= conclusions, conclusions
