"""Library proof cases (01 §8.2): discover, prove in parallel, compare with the expected outcome.

The layer (every domain of the library) is loaded once in this process; cases are proved in
forked children so each gets its own solver while sharing the loaded layer (TL-6 holds: one
layer per process tree).
"""

from __future__ import annotations

import ast
import json
import os
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from clauz3.base.astparse import parse_ast
from clauz3.prover.entry import DiagnosticRecord, EntryFormatError, ProofEntry
from clauz3.prover.errors import ProverError
from clauz3.prover.pipeline import ProofRequest, layer_for, prove_file

EXPECT = re.compile(r"#\s*clauz3-expect:\s*(.+?)\s*$")


class CaseError(ProverError):
    """Bad case folder (exit 2)."""


@dataclass(frozen=True)
class CaseResult:
    name: str
    ok: bool
    expected: str
    got: str


def find_cases(source: Path) -> list[Path]:
    for folder in (source / "tests" / "cases", source / "cases"):
        if folder.is_dir():
            cases = sorted(p for p in folder.glob("*.py") if p.is_file())
            bad = [p.name for p in cases if not p.name.endswith(("_pass.py", "_fail.py"))]
            if bad:
                raise CaseError("case names must end in _pass.py or _fail.py: " + ", ".join(bad))
            return cases
    raise CaseError(f"{source}: no tests/cases/ or cases/ folder")


def library_roots(source: Path) -> tuple[list[Path], list[Path]]:
    """Every domain of SOURCE (05 SRC-2); the import root is SOURCE (the folder holding tools/)."""
    tools = source / "tools"
    roots: list[Path] = []
    if tools.is_dir():
        for first in sorted(tools.iterdir()):
            if not first.is_dir() or first.is_symlink() or not first.name.isidentifier():
                continue
            if (first / "trusted").is_dir():
                roots.append(first / "trusted")
                continue
            for second in sorted(first.iterdir()):
                if second.is_dir() and second.name.isidentifier() and (second / "trusted").is_dir():
                    roots.append(second / "trusted")
    if not roots:
        raise CaseError(f"{source}: no trusted library (tools/<domain>/trusted) found")
    return roots, [source]


def expected_outcome(path: Path) -> str | None:
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()[:20]
    except OSError:
        return None
    for line in lines:
        m = EXPECT.search(line)
        if m:
            return " ".join(m.group(1).split())
    return None


def actual_outcomes(entry: ProofEntry) -> list[str]:
    if entry.target_missing:
        return ["refused target-missing"]
    if entry.refused:
        codes = [c for c in entry.diagnostic_codes() if c] or ["error"]
        return [f"refused {c}" for c in codes]
    out = []
    for o in entry.obligations:
        if o.conclusion == "violated":
            out.append(f"violated {o.kind}")
        elif o.conclusion == "unknown":
            out.append(f"unknown {o.reason}")
    return out or ["proved"]


def judge(name: str, entry: ProofEntry, expect: str | None) -> CaseResult:
    outcomes = actual_outcomes(entry)
    got = outcomes[0]
    if name.endswith("_pass.py"):
        return CaseResult(name, outcomes == ["proved"], "proved", got)
    if expect is None:
        return CaseResult(name, outcomes != ["proved"], "not proved", got)
    if expect in outcomes:
        return CaseResult(name, True, expect, expect)
    return CaseResult(name, False, expect, got)


def _prove_case(args: tuple[str, list[str], list[str], bool]) -> tuple[str, ProofEntry]:
    path, trusted, imports, use_cache = args
    req = ProofRequest(Path(path), [Path(p) for p in trusted], [Path(p) for p in imports], use_cache=use_cache)
    outcome = prove_file(req, project_root=Path(imports[0]))
    return path, outcome.entry


def _prove_forked(work: list[tuple[str, list[str], list[str], bool]], jobs: int) -> dict[str, ProofEntry]:
    """Prove cases in ``jobs`` forked children (plain fork + pipes: no helper threads to deadlock on)."""
    by_size = sorted(work, key=lambda item: -Path(item[0]).stat().st_size)
    chunks = [by_size[i::jobs] for i in range(jobs)]
    children: list[tuple[int, int, list[str]]] = []
    sys.stdout.flush()
    sys.stderr.flush()
    for chunk in chunks:
        read_fd, write_fd = os.pipe()
        pid = os.fork()
        if pid == 0:  # child: prove its share, send JSON back, never return into the caller
            code = 0
            try:
                os.close(read_fd)
                payload = json.dumps([(p, e.to_json()) for p, e in map(_prove_case, chunk)]).encode()
                with os.fdopen(write_fd, "wb") as fh:
                    fh.write(payload)
            except BaseException:
                code = 1
            finally:
                os._exit(code)
        os.close(write_fd)
        children.append((pid, read_fd, [item[0] for item in chunk]))
    entries: dict[str, ProofEntry] = {}
    for pid, read_fd, paths in children:
        with os.fdopen(read_fd, "rb") as fh:
            data = fh.read()
        os.waitpid(pid, 0)
        try:
            for path, entry in json.loads(data or b"[]"):
                entries[path] = ProofEntry.from_json(entry)
        except (ValueError, TypeError, EntryFormatError):
            pass
        for path in paths:
            entries.setdefault(path, ProofEntry(path, "main", "", diagnostics=(
                DiagnosticRecord("error", path, 1, 1, "worker-crashed", "the proving child crashed"),)))
    return entries


def helpers_named(path: Path) -> set[str]:
    """Registered helper keys named in the case's guarantees, resolved through its imports."""
    try:
        tree = parse_ast(path.read_bytes())
    except (SyntaxError, ValueError, OSError):
        return set()
    modules: dict[str, str] = {}
    names: dict[str, tuple[str, str]] = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.Import):
            for a in stmt.names:
                if a.asname:
                    modules[a.asname] = a.name
        elif isinstance(stmt, ast.ImportFrom) and stmt.module and stmt.level == 0:
            for a in stmt.names:
                local = a.asname or a.name
                modules[local] = f"{stmt.module}.{a.name}"
                names[local] = (stmt.module, a.name)
    from clauz3.vocabulary.contracts import CONTRACTS

    by_identity = {id(meta.fn): key for key, meta in CONTRACTS.items()}
    found: set[str] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.FunctionDef):
            continue
        for dec in node.decorator_list:
            if not (isinstance(dec, ast.Call) and dec.args and isinstance(dec.args[0], ast.Call)):
                continue
            func = dec.args[0].func
            target: tuple[str, str] | None = None
            if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
                mod = modules.get(func.value.id)
                if mod:
                    target = (mod, func.attr)
            elif isinstance(func, ast.Name) and func.id in names:
                target = names[func.id]
            if target is None:
                continue
            module = sys.modules.get(target[0])
            obj = getattr(module, target[1], None) if module is not None else None
            key = by_identity.get(id(obj)) if obj is not None else None
            found.add(key or f"{target[0]}.{target[1]}")
    return found


def run_cases(source: Path, *, jobs: int, use_cache: bool, require_coverage: bool, out: TextIO) -> int:
    from clauz3.language.layer import LayerError

    cases = find_cases(source)
    trusted, imports = library_roots(source)
    try:
        layer_for(trusted, imports)
    except LayerError as exc:
        print(exc.diagnostic.render(), file=sys.stderr)
        return 2
    work = [(str(p), [str(t) for t in trusted], [str(i) for i in imports], use_cache) for p in cases]
    entries: dict[str, ProofEntry] = {}
    if jobs > 1 and len(work) > 1:
        entries.update(_prove_forked(work, min(jobs, len(work))))
    else:
        for item in work:
            path, entry = _prove_case(item)
            entries[path] = entry
    passed = failed = 0
    for p in cases:
        result = judge(p.name, entries[str(p)], expected_outcome(p))
        if result.ok:
            passed += 1
            print(f"PASS {p.name}", file=out)
        else:
            failed += 1
            print(f"FAIL {p.name}: expected {result.expected}, got {result.got}", file=out)
    if require_coverage:
        for line in coverage_failures(cases):
            failed += 1
            print(line, file=out)
    print(f"{passed} passed, {failed} failed", file=out)
    out.flush()
    return 0 if failed == 0 else 1


def coverage_failures(cases: Iterable[Path]) -> list[str]:
    from clauz3.vocabulary.contracts import CONTRACTS

    covered: dict[str, set[str]] = {"_pass": set(), "_fail": set()}
    for p in cases:
        kind = "_pass" if p.name.endswith("_pass.py") else "_fail"
        covered[kind] |= helpers_named(p)
    lines = []
    for key in sorted(CONTRACTS):
        meta = CONTRACTS[key]
        label = f"{_library(meta.module)}.{meta.fn.__name__}"
        for kind in ("_pass", "_fail"):
            if key not in covered[kind]:
                lines.append(f"FAIL coverage {label}: no {kind} case")
    return lines


def _library(module: str) -> str:
    parts = module.split(".")
    if len(parts) >= 3 and parts[0] == "tools":
        idx = parts.index("trusted") if "trusted" in parts else 2
        return ".".join(parts[1:idx])
    return module
