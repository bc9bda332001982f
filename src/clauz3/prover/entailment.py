"""Policy entailment (03 POL-3…POL-6): prove a rule's clauses as extra guarantees, in a subprocess.

The authority never imports trusted or agent code (LIFE-5), so :func:`entails` runs
``python -I -B -m clauz3.prover.entailment`` with the query on stdin, an allow-listed environment and
the project as cwd. The child works on the parsed tree, never on source text (issue 11 §1):

* every identifier of the program is scanned, and one containing the reserved prefix is refused, so
  the program can bind none of the names the child adds;
* the rule's imports are bound under a prefix drawn fresh for this evaluation, and each clause is
  added as a decorator node on the target; the tree is unparsed, re-parsed and compared node for node,
  so what the checker reads is exactly that tree (a form feed or U+2028 in a docstring cannot move
  anything: line breaks exist only where the parser put them);
* the rule's obligations are the guarantees the checker built at the lines of the added nodes — the
  program's own guarantees sit on other lines — and each must resolve to the helper the policy names
  (``<policy module>.<attribute path>``), whatever the program imports under any alias.

The answer is ``{"entailed": bool}`` or ``{"error": …}``, which the caller treats as undecidable
(POL-5); timeouts, unknown verdicts and errors never approve.
"""

from __future__ import annotations

import ast
import json
import os
import secrets
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, is_dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias, cast

from clauz3.base.astparse import parse_ast
from clauz3.prover.errors import ProverError

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

    # The authority's frozen ProofQuery / EntailmentQuery (approvals/ is not importable from the prover:
    # the checked-apart contract), or the same fields as a JSON mapping.
    Query: TypeAlias = DataclassInstance | Mapping[str, Any]

# Any identifier containing this is refused in a program under evaluation (the added names all start
# with it); the per-evaluation random part means even a refused-check bypass could not guess them.
RESERVED = "_clauz3_policy"
PROGRAM_NAME = "policy_program.py"
# Variables the child may inherit; everything else (switches, PYTHONPATH, tickets) is dropped.
ENV_ALLOW = ("PATH", "LANG", "LC_ALL", "LC_CTYPE", "TMPDIR")
_LINE_BREAKS = "\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


class EntailmentError(ProverError):
    """The rule could not be evaluated (undecidable, POL-5)."""


class ReservedName(ProverError):
    """The program uses an identifier containing the reserved prefix (it is refused)."""


def child_env() -> dict[str, str]:
    return {k: os.environ[k] for k in ENV_ALLOW if k in os.environ}


def query_doc(query: Query) -> dict[str, Any]:
    """The query's fields as a plain dict, whichever form it came in."""
    if is_dataclass(query) and not isinstance(query, type):
        return asdict(query)
    return dict(cast("Mapping[str, Any]", query))


def entails(query: Query) -> bool:
    """True iff every clause is proved on the query's program; raises when undecidable."""
    return bool(entailment(query)["entailed"])


def entailment(query: Query) -> dict[str, Any]:
    """``{"entailed": bool, "covers": [qualified effect names the clauses constrain]}``; raises when
    undecidable (issue 19: an allow rule decides only programs whose every effect it covers)."""
    doc = query_doc(query)
    timeout = float(doc.get("timeout_seconds") or 20.0)
    cwd = doc.get("project") or None
    if cwd and not os.path.isdir(cwd):
        cwd = None
    try:
        proc = subprocess.run(
            [sys.executable, "-I", "-B", "-m", "clauz3.prover.entailment"],
            input=json.dumps(doc).encode(),
            capture_output=True,
            env=child_env(),
            cwd=cwd,
            timeout=timeout,
            start_new_session=True,
        )
    except subprocess.TimeoutExpired:
        raise EntailmentError("policy evaluation timed out") from None
    try:
        answer = json.loads(proc.stdout.decode() or "{}")
    except ValueError:
        answer = {}
    if not isinstance(answer, dict) or type(answer.get("entailed")) is not bool:
        why = answer.get("error") if isinstance(answer, dict) else None
        raise EntailmentError(why or f"policy evaluation failed (exit {proc.returncode})")
    return verdict(answer)


def verdict(answer: Mapping[str, Any]) -> dict[str, Any]:
    """The child's answer as ``{"entailed", "covers"}``; a missing or malformed ``covers`` covers nothing."""
    covers = answer.get("covers")
    if not isinstance(covers, list) or not all(isinstance(c, str) for c in covers):
        covers = []
    return {"entailed": bool(answer["entailed"]), "covers": list(covers)}


# ------------------------------------------------------------------------------ the augmented tree


@dataclass(frozen=True)
class Augmented:
    """The augmented program's text and, per added guarantee, its line and the helper it must name."""

    source: str
    expected: dict[int, str]  # line of an added decorator -> "<module>.<helper path>"
    prefix: str


def fresh_prefix() -> str:
    return f"{RESERVED}_{secrets.token_hex(8)}_"


def reserved_uses(tree: ast.AST) -> list[tuple[int, int, str]]:
    """Every identifier (any name, attribute, argument, alias, module) containing :data:`RESERVED`."""
    found: list[tuple[int, int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant):
            continue
        for field, value in ast.iter_fields(node):
            if field == "type_comment":
                continue
            values = value if isinstance(value, list) else [value]
            for item in values:
                if isinstance(item, str) and RESERVED in item:
                    found.append((getattr(node, "lineno", 1), getattr(node, "col_offset", 0) + 1, item))
    return found


def _clause(text: str, imports: Mapping[str, str], prefix: str) -> tuple[ast.expr, str]:
    """The clause with policy aliases renamed, and the helper it must resolve to."""
    try:
        expr = parse_ast(text, mode="eval").body
    except SyntaxError as exc:
        raise EntailmentError(f"clause {text[:80]!r} is not a Python expression") from exc
    if not isinstance(expr, ast.Call):
        raise EntailmentError(f"clause {text[:80]!r} is not a call of a contract helper")
    path: list[str] = []
    func: ast.expr = expr.func
    while isinstance(func, ast.Attribute):
        path.append(func.attr)
        func = func.value
    if not isinstance(func, ast.Name) or func.id not in imports or not path:
        raise EntailmentError(f"clause {text[:80]!r} must call a helper of a policy import (alias.helper(...))")
    helper = ".".join([imports[func.id], *reversed(path)])
    for node in ast.walk(expr):
        if isinstance(node, ast.Name):
            if node.id not in imports:
                raise EntailmentError(f"clause {text[:80]!r} names {node.id!r}, which is not a policy import")
            node.id = prefix + node.id
    return expr, helper


def _insert_at(tree: ast.Module) -> int:
    """After the module docstring and ``__future__`` imports, so the module stays valid."""
    index = 0
    for k, node in enumerate(tree.body):
        docstring = k == 0 and isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) \
            and isinstance(node.value.value, str)
        if docstring or (isinstance(node, ast.ImportFrom) and node.module == "__future__"):
            index = k + 1
        else:
            break
    return index


def augment(program: str, target: str, imports: Mapping[str, str], clauses: Sequence[str],
            prefix: str | None = None) -> Augmented:
    """The program's tree with the clauses as guarantees on ``target``; raises ReservedName/EntailmentError."""
    prefix = prefix or fresh_prefix()
    try:
        tree = parse_ast(program, filename=PROGRAM_NAME)
    except (SyntaxError, ValueError) as exc:
        raise EntailmentError(f"the program does not parse: {exc}") from None
    uses = reserved_uses(tree)
    if uses:
        line, col, name = uses[0]
        raise ReservedName(f"{PROGRAM_NAME}:{line}:{col}: reserved-name: `{name[:80]}` uses the reserved prefix "
                           f"{RESERVED}")
    target_def = next((n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == target), None)
    if target_def is None:
        raise EntailmentError(f"the program has no target function {target!r}")
    guarantee = prefix + "clauz3"
    added: list[tuple[ast.expr, str]] = []
    for text in clauses:
        expr, helper = _clause(text, imports, prefix)
        call = ast.Call(func=ast.Attribute(ast.Name(guarantee, ast.Load()), "guarantee", ast.Load()),
                        args=[expr], keywords=[])
        added.append((call, helper))
    if not added:
        raise EntailmentError("the rule has no clauses")
    header: list[ast.stmt] = [ast.Import([ast.alias("clauz3", guarantee)])]
    header += [ast.Import([ast.alias(module, prefix + alias)]) for alias, module in sorted(imports.items())]
    at = _insert_at(tree)
    tree.body[at:at] = header
    target_def.decorator_list[:0] = [call for call, _ in added]
    ast.fix_missing_locations(tree)
    try:
        source = ast.unparse(tree) + "\n"
        again = parse_ast(source, filename=PROGRAM_NAME)
    except (SyntaxError, ValueError, RecursionError) as exc:
        raise EntailmentError(f"the augmented program does not round-trip: {type(exc).__name__}") from None
    # The checker must read exactly the tree built here, with no line break the parser does not count.
    if ast.dump(again) != ast.dump(tree) or any(ch in source for ch in _LINE_BREAKS):
        raise EntailmentError("the augmented program does not round-trip")
    again_def = next(n for n in again.body if isinstance(n, ast.FunctionDef) and n.name == target)
    expected: dict[int, str] = {}
    taken = {line for dec in again_def.decorator_list[len(added):]
             for line in range(dec.lineno, (dec.end_lineno or dec.lineno) + 1)}
    for dec, (_, helper) in zip(again_def.decorator_list, added, strict=False):
        if dec.lineno != dec.end_lineno or dec.lineno in expected or dec.lineno in taken:
            raise EntailmentError("an added guarantee does not sit on a line of its own")
        expected[dec.lineno] = helper
    return Augmented(source, expected, prefix)


# ------------------------------------------------------------------------------------ the child


def _answer(doc: dict[str, Any]) -> int:
    print(json.dumps(doc))
    return 0


def evaluate(doc: Mapping[str, Any]) -> dict[str, Any]:
    """The child's work on one query document; the answer to print."""
    started = time.monotonic()
    budget = max(0.5, float(doc.get("timeout_seconds") or 20.0) - 0.2)
    target = str(doc.get("target") or "main")
    try:
        aug = augment(str(doc["program"]), target, dict(doc.get("imports") or {}), list(doc["clauses"]))
    except ReservedName as exc:
        return {"entailed": False, "why": f"program refused: {exc}"}  # POL-4: never fires an allow rule
    except (KeyError, TypeError, EntailmentError) as exc:
        return {"error": f"cannot build the policy program: {exc}"}

    from clauz3.language import Refused, check_source
    from clauz3.language.layer import LayerError
    from clauz3.prover.api import prove
    from clauz3.prover.pipeline import layer_for

    try:
        layer = layer_for([Path(p) for p in doc.get("trusted_roots") or ()],
                          [Path(p) for p in doc.get("import_roots") or ()])
        program = check_source(aug.source.encode(), PROGRAM_NAME, layer, target, ())
    except LayerError as exc:
        return {"error": f"the layer does not load: {exc}"}
    except Refused:
        return {"entailed": False, "why": "program refused"}  # POL-4
    remaining = budget - (time.monotonic() - started)
    if remaining <= 0:
        return {"error": "policy evaluation deadline passed"}
    result = prove(program, obligation_timeout=min(10.0, remaining), deadline=time.monotonic() + remaining)
    # prove() reports the program's guarantees last, in program.guarantees order (one result each).
    count = len(program.guarantees)
    pairs = list(zip(program.guarantees, result.obligations[len(result.obligations) - count:], strict=True))
    mine = [(g, r) for g, r in pairs if g.kind == "guarantee" and g.line in aug.expected]
    if sorted(g.line for g, _ in mine) != sorted(aug.expected):
        return {"error": "the rule's clauses did not each yield one obligation"}
    for g, r in mine:
        if r.line != g.line or r.kind != "guarantee" or r.helper != g.helper:
            return {"error": "the rule's obligations could not be identified"}
        if g.helper != aug.expected[g.line]:
            return {"error": f"clause resolved to {g.helper}, not the policy's {aug.expected[g.line]}"}
    if any(r.reason in ("deadline", "timeout") for _, r in mine):
        return {"error": "policy evaluation deadline passed"}
    from clauz3.prover.facts import spec_effects

    # Issue 19: what the rule speaks about, so an allow rule decides only programs inside it.
    covers: set[str] = set()
    for g, _ in mine:
        covers |= spec_effects(g.spec, program)
    return {"entailed": all(r.conclusion == "proved" for _, r in mine), "covers": sorted(covers)}


def _child() -> int:
    try:
        doc = json.loads(sys.stdin.buffer.read(2 * 1024 * 1024 + 1))
        if not isinstance(doc, dict):
            raise ValueError("the query is not an object")
    except ValueError as exc:
        return _answer({"error": f"bad policy query: {exc}"})
    try:
        return _answer(evaluate(doc))
    except Exception as exc:  # an unforeseen failure is undecidable, never a verdict
        return _answer({"error": f"policy evaluation failed: {type(exc).__name__}: {str(exc)[:200]}"})


if __name__ == "__main__":
    raise SystemExit(_child())
