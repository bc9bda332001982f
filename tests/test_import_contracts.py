"""The import order is enforced (issue 15, docs/architecture.md).

Two checks: import-linter's contracts in pyproject.toml hold (run as the real `lint-imports`), and no
import cycle exists between files of src/clauz3 counting every import statement wherever it stands
(module level, inside functions, under ``if TYPE_CHECKING:``): a circle closed through a lazy import is
still a circle a reader has to untangle. Each is also shown to fail on a planted violation, so a green
run means the check looked at something.
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
PACKAGE = "clauz3"

# Known cycles, each a set of modules with a one-line reason; an entry that no longer matches fails the
# check, so it is deleted the moment its cycle is broken.
ALLOWED_CYCLES: dict[frozenset[str], str] = {}


def _lint_imports() -> str:
    found = Path(sys.executable).with_name("lint-imports")
    if found.exists():
        return str(found)
    which = shutil.which("lint-imports")
    if which is None:
        pytest.fail("lint-imports is not installed: `uv sync` installs import-linter from the dev group")
    return which


def _run_lint(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [_lint_imports(), "--no-cache", "--no-logo", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def _config() -> dict[str, object]:
    with (ROOT / "pyproject.toml").open("rb") as fh:
        data = tomllib.load(fh)
    return data["tool"]["importlinter"]


def _contracts() -> list[dict[str, object]]:
    contracts = _config()["contracts"]
    assert isinstance(contracts, list)
    return contracts


def _contract(contract_id: str) -> dict[str, object]:
    for contract in _contracts():
        if contract["id"] == contract_id:
            return contract
    raise AssertionError(f"no import-linter contract {contract_id!r} in pyproject.toml")


def _top_level_modules() -> set[str]:
    """Every module and package directly under clauz3/ (what a contract must place)."""
    names = set()
    for child in (SRC / PACKAGE).iterdir():
        if child.suffix == ".py" and child.stem != "__init__":
            names.add(f"{PACKAGE}.{child.stem}")
        elif child.is_dir() and (child / "__init__.py").exists():
            names.add(f"{PACKAGE}.{child.name}")
    return names


def test_import_contracts_hold() -> None:
    result = _run_lint()
    assert result.returncode == 0, result.stdout + result.stderr
    kept = f"Contracts: {len(_contracts())} kept, 0 broken."
    assert kept in result.stdout, result.stdout


def test_every_top_level_module_has_a_place_in_the_order() -> None:
    """A new package outside the layers would be checked by nothing; it must be placed on purpose."""
    layered: set[str] = set()
    for layer in _contract("order")["layers"]:
        assert isinstance(layer, str)
        for name in layer.replace("|", ":").split(":"):
            layered.add(name.strip())
    modules = _top_level_modules()
    assert len(modules) > 20
    assert modules - {f"{PACKAGE}.agents"} <= layered, sorted(modules - layered - {f"{PACKAGE}.agents"})
    assert not layered - modules, f"layers name modules that do not exist: {sorted(layered - modules)}"
    others = modules - {f"{PACKAGE}.agents"}
    assert set(_contract("demo-agent")["forbidden_modules"]) == others
    assert set(_contract("demo-agent-apart")["source_modules"]) == others


@pytest.mark.parametrize(
    ("source", "forbidden"),
    [(f"{PACKAGE}.runs", f"{PACKAGE}.prover"), (f"{PACKAGE}.prover", "z3"), (f"{PACKAGE}.bridge", "mcp")],
)
def test_lint_imports_fails_on_a_broken_contract(tmp_path: Path, source: str, forbidden: str) -> None:
    """The same tool and settings, on a contract today's code breaks, must fail (internal and external)."""
    config = tmp_path / "broken.toml"
    config.write_text(
        "[tool.importlinter]\n"
        f'root_package = "{PACKAGE}"\n'
        "include_external_packages = true\n"
        "[[tool.importlinter.contracts]]\n"
        f'name = "planted: {source} must not import {forbidden}"\n'
        'type = "forbidden"\n'
        f'source_modules = ["{source}"]\n'
        f'forbidden_modules = ["{forbidden}"]\n'
    )
    result = _run_lint("--config", str(config))
    assert result.returncode != 0, result.stdout
    assert "BROKEN" in result.stdout, result.stdout


# --- module-level import cycles -------------------------------------------------------------------


def _modules(src: Path, package: str) -> dict[str, tuple[Path, bool]]:
    out: dict[str, tuple[Path, bool]] = {}
    for path in sorted((src / package).rglob("*.py")):
        parts = list(path.relative_to(src).with_suffix("").parts)
        # Bundled tutorial workspaces hold directories like `real-files`: data, not importable modules.
        if not all(part.isidentifier() for part in parts):
            continue
        is_package = parts[-1] == "__init__"
        if is_package:
            parts = parts[:-1]
        out[".".join(parts)] = (path, is_package)
    return out


def _deepest(name: str, modules: dict[str, tuple[Path, bool]]) -> str | None:
    """The module ``import a.b.c`` (or a dotted name under it) binds: the longest prefix that is a file."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def import_graph(src: Path, package: str) -> dict[str, set[str]]:
    """Module -> the package's modules it imports anywhere in its file (``from a import b`` names a.b if a
    module, else a). An import of a package enclosing the importer is not an edge: Python runs that
    package's ``__init__`` before any module inside it, and binds its submodules itself."""
    modules = _modules(src, package)
    graph: dict[str, set[str]] = {}
    for name, (path, is_package) in modules.items():
        here = name.split(".") if is_package else name.split(".")[:-1]
        deps: set[str] = set()
        for stmt in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(stmt, ast.Import):
                for alias in stmt.names:
                    found = _deepest(alias.name, modules)
                    if found is not None:
                        deps.add(found)
            elif isinstance(stmt, ast.ImportFrom):
                if stmt.level:
                    base = here[: len(here) - (stmt.level - 1)]
                    target = ".".join([*base, *([stmt.module] if stmt.module else [])])
                else:
                    target = stmt.module or ""
                for alias in stmt.names:
                    if f"{target}.{alias.name}" in modules:
                        deps.add(f"{target}.{alias.name}")
                    elif target in modules:
                        deps.add(target)
        deps.discard(name)
        graph[name] = {d for d in deps if not name.startswith(d + ".")}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative: no recursion limit)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            advanced = False
            for succ in successors:
                if succ not in index:
                    index[succ] = low[succ] = counter
                    counter += 1
                    stack.append(succ)
                    on_stack.add(succ)
                    work.append((succ, iter(sorted(graph.get(succ, ())))))
                    advanced = True
                    break
                if succ in on_stack:
                    low[node] = min(low[node], index[succ])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(frozenset(component))
    return found


def test_no_import_cycle_between_files() -> None:
    graph = import_graph(SRC, PACKAGE)
    assert len(graph) > 200 and sum(map(len, graph.values())) > 500, "the import graph came out empty"
    found = cycles(graph)
    for component in found:
        print("import cycle:", " <-> ".join(sorted(component)))
    new = [c for c in found if not any(c <= allowed for allowed in ALLOWED_CYCLES)]
    assert not new, "import cycle(s) between files: " + "; ".join(" <-> ".join(sorted(c)) for c in new)
    stale = [a for a in ALLOWED_CYCLES if not any(c <= a for c in found)]
    assert not stale, f"allowed cycles that no longer exist, delete them from ALLOWED_CYCLES: {stale}"


def test_cycle_check_finds_planted_cycles(tmp_path: Path) -> None:
    pkg = tmp_path / "planted"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("from planted import a\n")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from planted.sub import b\n")
    (pkg / "sub" / "b.py").write_text("from .. import c\n")
    (pkg / "c.py").write_text("import planted.a\n")
    # Closed only through a TYPE_CHECKING import (d <-> e) and a function-level one (e <-> sub.g): both count.
    (pkg / "d.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from planted import e\n")
    (pkg / "e.py").write_text("from planted import d\ndef f():\n    from planted.sub import g\n")
    (pkg / "sub" / "g.py").write_text("import planted.e.x\n")
    # Not a cycle: a module naming its enclosing package (run first by Python) while __init__ imports it.
    (pkg / "h.py").write_text("import planted\nfrom planted import sub\n")
    graph = import_graph(tmp_path, "planted")
    assert graph["planted.e"] == {"planted.d", "planted.sub.g"}
    assert graph["planted.sub.g"] == {"planted.e"}
    assert graph["planted.h"] == {"planted.sub"}
    assert graph["planted.sub.b"] == {"planted.c"}
    found = cycles(graph)
    assert len(found) == 2
    assert set(found) == {
        frozenset({"planted.d", "planted.e", "planted.sub.g"}),
        frozenset({"planted.a", "planted.sub.b", "planted.c"}),
    }
