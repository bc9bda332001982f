"""Errors carry a string code; exit statuses and HTTP statuses are chosen only at the edges (issue 15).

An exception class defined outside the CLI and HTTP edge modules must not carry a process exit status
or an HTTP status: no ``exit_code``/``status``/``http_status``… attribute, and no ``code`` taken from an
``int`` parameter. The CLI maps codes in one table (:mod:`clauz3.commands._errors`), the web routes in
theirs. The scan also runs on planted violations and must find what the edge modules hold, so a green
run means it looked at something.
"""

from __future__ import annotations

import ast
import builtins
import functools
from collections.abc import Iterator
from pathlib import Path

import pytest

from clauz3.commands._errors import LAUNCH_EXIT, LIBRARY_EXIT, launch_exit, library_exit
from clauz3.layers.liberrors import CODES, LibraryError
from clauz3.sessions.launch.errors import LAUNCH_CODES, LaunchError

SRC = Path(__file__).resolve().parents[1] / "src" / "clauz3"

STATUS_ATTRS = frozenset({"exit_code", "exit_status", "returncode", "http_status", "status", "status_code"})
# The edges, where a failure becomes what the person or the browser sees: the command line, the
# workspace's HTTP routes, the authority's HTTP app and the runs' HTTP client of it (the status it was answered).
EDGE = ("cli.py", "commands/", "sessions/web/", "approvals/app.py", "approvals/transport.py",
        "runs/client.py")
# JSON-RPC error numbers are a field of the wire (ACP), not a status: only ``code`` is allowed there.
WIRE_INT_CODE = {"sessions/agent/jsonrpc.py", "sessions/agent/acp_client.py"}
_BUILTIN_EXCEPTIONS = frozenset(n for n in dir(builtins) if isinstance(getattr(builtins, n), type)
                                and issubclass(getattr(builtins, n), BaseException))


def _base_name(node: ast.expr) -> str:
    return node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""


def exception_classes(trees: dict[str, ast.Module]) -> Iterator[tuple[str, ast.ClassDef]]:
    """Every class that derives (by name, through classes of the scanned files) from an exception."""
    classes = [(rel, node) for rel, tree in trees.items() for node in ast.walk(tree) if isinstance(node, ast.ClassDef)]
    known = set(_BUILTIN_EXCEPTIONS)
    grew = True
    while grew:
        grew = False
        for _, node in classes:
            if node.name not in known and any(_base_name(b) in known for b in node.bases):
                known.add(node.name)
                grew = True
    for rel, node in classes:
        if node.name in known:
            yield rel, node


def _int_params(cls: ast.ClassDef) -> set[str]:
    found: set[str] = set()
    for fn in cls.body:
        if isinstance(fn, ast.FunctionDef):
            for arg in [*fn.args.args, *fn.args.kwonlyargs]:
                if arg.annotation is not None and "int" in ast.unparse(arg.annotation).split(" | "):
                    found.add(arg.arg)
    return found


def status_attributes(cls: ast.ClassDef) -> list[str]:
    """``name:line`` of each status an exception class carries (class attribute, field or ``self.x = …``)."""
    ints = _int_params(cls)
    hits: list[str] = []
    for node in ast.walk(cls):
        if isinstance(node, ast.FunctionDef) and node.name in STATUS_ATTRS:  # a property or method
            hits.append(f"{node.name}:{node.lineno}")
        targets: list[ast.expr] = []
        value: ast.expr | None = None
        if isinstance(node, ast.Assign):
            targets, value = list(node.targets), node.value
        elif isinstance(node, ast.AnnAssign):
            targets, value = [node.target], node.value
            if isinstance(node.target, ast.Name) and node.target.id == "code" and "int" in ast.unparse(node.annotation):
                hits.append(f"code:{node.lineno}")
        for target in targets:
            name = target.attr if isinstance(target, ast.Attribute) else target.id if isinstance(target, ast.Name) else ""
            if name in STATUS_ATTRS:
                hits.append(f"{name}:{node.lineno}")
            elif name == "code" and (
                    (isinstance(value, ast.Name) and value.id in ints)
                    or (isinstance(value, ast.Constant) and type(value.value) is int)):
                hits.append(f"code:{node.lineno}")
    return hits


def violations(trees: dict[str, ast.Module]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for rel, cls in exception_classes(trees):
        if rel.startswith(EDGE):
            continue
        hits = status_attributes(cls)
        if rel in WIRE_INT_CODE:
            hits = [h for h in hits if not h.startswith("code:")]
        if hits:
            out[f"{rel}:{cls.name}"] = hits
    return out


@functools.cache
def _trees() -> dict[str, ast.Module]:
    return {p.relative_to(SRC).as_posix(): ast.parse(p.read_text(encoding="utf-8"))
            for p in sorted(SRC.rglob("*.py")) if "__pycache__" not in p.parts}


def test_no_error_outside_the_edges_carries_an_exit_or_http_status() -> None:
    trees = _trees()
    assert violations(trees) == {}
    # It looked: the edge modules do hold such errors (CLI exit status, HTTP status), and the scan sees them.
    at_edge = {f"{rel}:{cls.name}" for rel, cls in exception_classes(trees) if status_attributes(cls)}
    assert "commands/errors.py:CommandError" in at_edge
    assert "sessions/web/checks.py:HttpError" in at_edge


def test_the_scan_catches_planted_violations() -> None:
    planted = ast.parse(
        "class Base(Exception):\n"
        "    pass\n"
        "class Busy(Base):\n"
        "    def __init__(self, message: str, *, exit_code: int = 5) -> None:\n"
        "        self.exit_code = exit_code\n"
        "class NotFound(ValueError):\n"
        "    status = 404\n"
        "class Refused(Base):\n"
        "    def __init__(self, message: str, code: int = 2) -> None:\n"
        "        self.code = code\n"
        "class Fine(Base):\n"
        "    def __init__(self, message: str, code: str = 'busy') -> None:\n"
        "        self.code = code\n"
        "class NotAnError:\n"
        "    status = 404\n"
        "class Verdict(Refused):\n"
        "    @property\n"
        "    def exit_code(self) -> int:\n"
        "        return 1\n")
    found = violations({"layers/planted.py": planted})
    assert found == {"layers/planted.py:Busy": ["exit_code:5"], "layers/planted.py:NotFound": ["status:7"],
                     "layers/planted.py:Refused": ["code:10"], "layers/planted.py:Verdict": ["exit_code:18"]}
    # The same classes at an edge are allowed.
    assert violations({"commands/planted.py": planted}) == {}


def _raised_library_codes() -> set[str]:
    """String codes given to ``LibraryError(message, code)`` anywhere in src/."""
    codes: set[str] = set()
    for tree in _trees().values():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _base_name(node.func) == "LibraryError":
                args = [*node.args[1:2], *(k.value for k in node.keywords if k.arg == "code")]
                codes.update(a.value for a in args if isinstance(a, ast.Constant) and isinstance(a.value, str))
    return codes


def test_every_library_code_has_one_exit_status_at_the_cli_edge() -> None:
    raised = _raised_library_codes()
    assert "busy" in raised and "source_unavailable" in raised  # the scan read the raise sites
    assert raised <= set(CODES)
    assert set(LIBRARY_EXIT) == set(CODES)
    # 05 §2.1: busy → 5, a missing required program (git) → 4, every other refusal → 2.
    for code in CODES:
        assert library_exit(LibraryError("x", code)) == (5 if code == "busy" else 2)
        assert library_exit(LibraryError("x", code, missing="git")) == 4


def test_liberrors_holds_no_status_table() -> None:
    tree = ast.parse((SRC / "layers" / "liberrors.py").read_text(encoding="utf-8"))
    numbers = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and type(n.value) is int]
    assert numbers == []
    assert not any(isinstance(n, (ast.Assign, ast.AnnAssign)) and isinstance(n.value, ast.Dict) for n in tree.body)
    with pytest.raises(AttributeError):
        _ = LibraryError("x", "busy").exit_code  # type: ignore[attr-defined]  # the attribute is gone


def test_every_library_and_attachment_code_has_an_http_status_at_the_web_edge() -> None:
    from clauz3.sessions.web.routes import ATTACHMENT_STATUS
    from clauz3.sessions.web.workspace_routes import LIBRARY_STATUS

    assert set(LIBRARY_STATUS) == set(CODES)
    tree = ast.parse((SRC / "sessions" / "conversation" / "attachments.py").read_text(encoding="utf-8"))
    raised = {n.args[0].value for n in ast.walk(tree)
              if isinstance(n, ast.Call) and _base_name(n.func) == "AttachmentError"
              and n.args and isinstance(n.args[0], ast.Constant) and isinstance(n.args[0].value, str)}
    assert "too_large" in raised and raised == set(ATTACHMENT_STATUS)


def _first_string_args(name: str, prefix: str = "") -> set[str]:
    """The string literal first argument of every ``name(…)`` call in src/ files under ``prefix``."""
    found: set[str] = set()
    for rel, tree in _trees().items():
        if not rel.startswith(prefix):
            continue
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and _base_name(node.func) == name and node.args
                    and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                found.add(node.args[0].value)
    return found


def test_every_launch_code_has_one_exit_status_at_the_cli_edge() -> None:
    # The service's startup codes travel into LaunchError unchanged, so they are launch codes too.
    raised = _first_string_args("LaunchError") | _first_string_args("StartupError") | _first_string_args("StoreError")
    assert {"port_in_use", "program_missing", "project_in_use", "store_unreadable"} <= raised  # it read the sites
    assert raised <= set(LAUNCH_CODES)
    assert set(LAUNCH_EXIT) == set(LAUNCH_CODES)
    # 05 §2.1: the lease held elsewhere → 5, the agent CLI missing or too old → 4, no answer from a service → 70.
    assert [launch_exit(LaunchError(c, "x")) for c in ("project_in_use", "program_missing", "service_not_started",
                                                        "store_incompatible")] == [5, 4, 70, 2]


def test_only_the_cli_edge_raises_exit_statuses() -> None:
    """``CommandError`` (message + exit status) is the command line's: nothing below it imports it."""
    importers = set()
    for rel, tree in _trees().items():
        for node in ast.walk(tree):
            names = ([node.module or ""] if isinstance(node, ast.ImportFrom)
                     else [a.name for a in node.names] if isinstance(node, ast.Import) else [])
            if any(n in ("clauz3.commands.errors", "clauz3.commands._errors") for n in names):
                importers.add(rel)
    assert "commands/_errors.py" in importers and "commands/install.py" in importers
    assert {rel for rel in importers if not rel.startswith(("commands/", "cli.py"))} == set()


def test_every_proof_verdict_has_one_exit_status_at_the_cli_edge() -> None:
    """The prover says what a proof came to; ``prove``/``policy-check`` choose the status (PCLI-4)."""
    import dataclasses
    import typing

    from clauz3.commands._errors import VERDICT_EXIT
    from clauz3.prover.pipeline import ProofOutcome, Verdict

    assert set(typing.get_args(Verdict)) == set(VERDICT_EXIT)
    assert VERDICT_EXIT == {"proved": 0, "not_proved": 1, "refused": 2, "expired": 2}  # 05 §2.1
    assert not STATUS_ATTRS & {f.name for f in dataclasses.fields(ProofOutcome)}
