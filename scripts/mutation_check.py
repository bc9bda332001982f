"""Mutation check (06 QB-23): mutating a literal a guarantee depends on must break the proof.

For every ``*_pass.py`` case of every example library (and stdlib library), each literal inside
a guarantee's arguments is mutated — an int to n−1 and n+1, a string to a different string, a
list by dropping one element — and the mutant is proved. A literal is *killed* when some mutant
of it is *refuted*: the prover shows a violating execution of some obligation. A mutant that is
refused, errs, times out or ends "unknown" kills nothing (the guarantee was not tested, or the
prover could not decide). A literal none of whose mutants was refuted *survives* when every mutant
proved, and is *undecided* when some mutant ended so: counted apart, and any undecided literal fails
the check whatever the kill rate (such mutants are all that would have "killed" it). Prints
survivors, undecided literals and the kill rate; exit 0 iff ≥ 95 % killed and none undecided.
Every unmutated pass case must prove first (a mutant of an unproved case is "killed" for nothing),
and a check that found no literal to mutate fails: it never passes on nothing.

Usage: python scripts/mutation_check.py [LIBRARY_DIR …]   (default: examples/* and stdlib)
"""

from __future__ import annotations

import argparse
import ast
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BAR = 0.95


def literal_sites(tree: ast.Module) -> list[tuple[ast.AST, str]]:
    """(node, description) for every mutable literal inside a guarantee decorator's helper call."""
    sites: list[tuple[ast.AST, str]] = []
    for fn in tree.body:
        if not isinstance(fn, ast.FunctionDef):
            continue
        for dec in fn.decorator_list:
            if not (isinstance(dec, ast.Call) and dec.args and isinstance(dec.args[0], ast.Call)):
                continue
            helper = dec.args[0]
            for node in ast.walk(helper):
                if node is helper:
                    continue
                if isinstance(node, ast.Constant) and type(node.value) in (int, str) and not isinstance(
                    node.value, bool
                ):
                    sites.append((node, f"line {node.lineno}: {ast.unparse(node)}"))
                elif isinstance(node, ast.List) and len(node.elts) > 1:
                    sites.append((node, f"line {node.lineno}: {ast.unparse(node)} (drop one)"))
    return sites


def body_literals(tree: ast.Module) -> tuple[list[int], list[str]]:
    """Int and str literals the program's function bodies use (the values guarantees are about)."""
    ints: set[int] = set()
    strs: set[str] = set()
    for fn in tree.body:
        if isinstance(fn, ast.FunctionDef):
            for stmt in fn.body:
                for node in ast.walk(stmt):
                    if isinstance(node, ast.Constant) and not isinstance(node.value, bool):
                        if isinstance(node.value, int):
                            ints.add(node.value)
                        elif isinstance(node.value, str):
                            strs.add(node.value)
    return sorted(ints), sorted(strs)


def mutants_of(source: str, index: int) -> list[str]:
    """Mutants of one guarantee literal: n±1 and the program's own values (±1) for ints, another
    string or one the program uses for strings, one element dropped for lists."""
    ints, strs = body_literals(ast.parse(source))
    node0, _ = literal_sites(ast.parse(source))[index]
    replacements: list[object] = []
    if isinstance(node0, ast.Constant) and isinstance(node0.value, int):
        n = node0.value
        replacements = [n - 1, n + 1, *(v + d for v in ints for d in (-1, 0, 1))]
    elif isinstance(node0, ast.Constant) and isinstance(node0.value, str):
        replacements = [node0.value + "zq", *strs]
    elif isinstance(node0, ast.List):
        replacements = list(range(len(node0.elts)))
    out: list[str] = []
    seen: set[str] = set()
    for value in replacements:
        tree = ast.parse(source)
        node, _ = literal_sites(tree)[index]
        if isinstance(node, ast.List):
            node.elts.pop(int(value))  # type: ignore[call-overload]
        elif isinstance(node, ast.Constant):
            if value == node.value or type(value) is not type(node.value):
                continue
            node.value = value
        text = ast.unparse(ast.fix_missing_locations(tree))
        if text not in seen:
            seen.add(text)
            out.append(text)
    return out


def refuted(outcomes: list[str]) -> bool:
    """A mutant is killed only by a counterexample: some obligation ``violated``. ``outcomes`` is
    :func:`clauz3.prover.casetest.actual_outcomes` of its entry ("proved", "violated <kind>",
    "unknown <reason>", "refused <code>"); refusals, errors, deadlines and unknowns decide nothing."""
    return any(o.startswith("violated ") for o in outcomes)


def undecided_outcomes(outcomes: list[str]) -> list[str]:
    """The outcomes of a mutant that is neither refuted nor proved: refused, erring, timed out, unknown."""
    return [o for o in outcomes if o != "proved" and not o.startswith("violated ")]


def literal_verdict(mutant_outcomes: list[list[str]]) -> tuple[str, list[str]]:
    """``killed`` when some mutant of the literal is refuted; else ``undecided`` (with the outcomes that
    decided nothing) when some mutant was refused, erred, timed out or ended unknown; else ``survived``
    (every mutant proved: the guarantee does not depend on the literal)."""
    undecided: list[str] = []
    for outcomes in mutant_outcomes:
        if refuted(outcomes):
            return "killed", []
        undecided += [o for o in undecided_outcomes(outcomes) if o not in undecided]
    return ("undecided", undecided) if undecided else ("survived", [])


def verdict(total: int, survivors: list[str], undecided: list[str], unproved: list[str]) -> tuple[list[str], int]:
    """The report's lines and the exit status: 0 iff some literal was mutated, every pass case proved
    first, no literal is undecided and at least BAR of them were killed."""
    lines = [f"not proved: {line} (the unmutated pass case must prove first)" for line in unproved]
    lines += [f"survivor: {line}" for line in survivors]
    lines += [f"undecided: {line}" for line in undecided]
    killed = total - len(survivors) - len(undecided)
    rate = killed / total if total else 0.0
    lines.append(f"{total} mutants, {killed} killed, {len(survivors)} survived, {len(undecided)} undecided "
                 f"({rate:.1%})")
    if not total:
        lines.append("error: no guarantee literal was mutated: the check ran on nothing")
    elif undecided:
        lines.append(f"error: {len(undecided)} literal(s) undecided: only mutants that erred, timed out, were "
                     "refused or ended unknown, and none of those is a kill")
    return lines, 0 if total and rate >= BAR and not undecided and not unproved else 1


def check_library(lib: Path) -> tuple[int, list[str], list[str], list[str]]:
    """Run in a child process per library (one layer per process)."""
    proc = subprocess.run([sys.executable, __file__, "--child", str(lib)], capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"{lib}: {proc.stderr.strip()[-500:]}")
    doc = json.loads(proc.stdout)
    return doc["total"], doc["survivors"], doc["undecided"], doc["unproved"]


def child(lib: Path) -> None:
    sys.path.insert(0, str(ROOT / "src"))
    from clauz3.prover.casetest import actual_outcomes, find_cases, library_roots
    from clauz3.prover.pipeline import ProofRequest, prove_file

    trusted, imports = library_roots(lib)
    total = 0
    survivors: list[str] = []
    undecided: list[str] = []
    unproved: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        for case in find_cases(lib):
            if not case.name.endswith("_pass.py"):
                continue
            original = prove_file(ProofRequest(case, trusted, [*imports, case.parent], use_cache=False),
                                  project_root=lib)
            if original.verdict != "proved":
                unproved.append(f"{lib.name}/{case.name}")
                continue
            source = case.read_text()
            sites = literal_sites(ast.parse(source))
            for i, (_, label) in enumerate(sites):
                total += 1
                seen: list[list[str]] = []
                for n, mutant in enumerate(mutants_of(source, i)):
                    path = Path(tmp) / f"m{total}_{n}_{case.name}"
                    path.write_text(mutant)
                    req = ProofRequest(path, trusted, [*imports, case.parent], use_cache=False)
                    seen.append(actual_outcomes(prove_file(req, project_root=lib).entry))
                    if refuted(seen[-1]):
                        break
                kind, why = literal_verdict(seen)
                if kind == "survived":
                    survivors.append(f"{lib.name}/{case.name} {label}")
                elif kind == "undecided":
                    undecided.append(f"{lib.name}/{case.name} {label} (mutants: {', '.join(why)})")
    print(json.dumps({"total": total, "survivors": survivors, "undecided": undecided, "unproved": unproved}))


def default_libraries() -> list[Path]:
    libs = [p for p in sorted((ROOT / "examples").iterdir()) if (p / "cases").is_dir()]
    stdlib = ROOT / "src" / "clauz3" / "stdlib"
    if stdlib.is_dir():
        libs += [p for p in sorted(stdlib.iterdir()) if (p / "tests" / "cases").is_dir()]
    return libs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("libraries", nargs="*", type=Path)
    args = parser.parse_args()
    if args.child:
        child(args.libraries[0].resolve())
        return 0
    total = 0
    survivors: list[str] = []
    undecided: list[str] = []
    unproved: list[str] = []
    for lib in args.libraries or default_libraries():
        t, s, d, u = check_library(lib.resolve())
        total += t
        survivors += s
        undecided += d
        unproved += u
    lines, status = verdict(total, survivors, undecided, unproved)
    print("\n".join(lines))
    return status


if __name__ == "__main__":
    raise SystemExit(main())
