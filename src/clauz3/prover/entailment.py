"""Policy entailment (03 POL-3…POL-6): prove a rule's clauses as extra guarantees, in a subprocess.

The authority never imports trusted or agent code (LIFE-5), so :func:`entails` runs
``python -P -m clauz3.prover.entailment`` with the query on stdin, a scrubbed environment and the
project as cwd. The child adds each clause as a guarantee on the target (aliases bound to
collision-free names), proves the augmented program once on the authorised layer and answers
``{"entailed": bool}`` — or an error, which the caller treats as undecidable (POL-5).
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import tempfile
from dataclasses import asdict, is_dataclass
from pathlib import Path
from typing import Any

ALIAS_PREFIX = "_clauz3_policy_"
GUARANTEE_ALIAS = "_clauz3_policy_clauz3"


class EntailmentError(Exception):
    """The rule could not be evaluated (undecidable, POL-5)."""


def entails(query: Any) -> bool:
    """True iff every clause is proved on the query's program; raises when undecidable."""
    doc = asdict(query) if is_dataclass(query) else dict(query)
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAUZ3_APPROVAL")}
    env.pop("CLAUZ3_BRIDGE_TICKET", None)
    env.pop("CLAUZ3_SESSION_LIFETIME_SOCKET", None)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    timeout = float(doc.get("timeout_seconds") or 20.0)
    cwd = doc.get("project") or None
    if cwd and not os.path.isdir(cwd):
        cwd = None
    try:
        proc = subprocess.run(
            [sys.executable, "-P", "-m", "clauz3.prover.entailment"],
            input=json.dumps(doc).encode(),
            capture_output=True,
            env=env,
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
    if "entailed" not in answer:
        raise EntailmentError(answer.get("error") or f"policy evaluation failed (exit {proc.returncode})")
    return bool(answer["entailed"])


def augment(program: str, target: str, imports: dict[str, str], clauses: list[str]) -> tuple[str, list[str]]:
    """The program with each clause added as a guarantee on ``target``; also the added expressions."""
    tree = ast.parse(program)
    renamed: list[str] = []
    for clause in clauses:
        expr = ast.parse(clause, mode="eval")
        for node in ast.walk(expr):
            if isinstance(node, ast.Name) and node.id in imports:
                node.id = ALIAS_PREFIX + node.id
        renamed.append(ast.unparse(expr.body))
    target_def = next(
        (n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == target), None
    )
    if target_def is None:
        raise EntailmentError(f"the program has no target function {target!r}")
    header = [f"import clauz3 as {GUARANTEE_ALIAS}"]
    header += [f"import {module} as {ALIAS_PREFIX}{alias}" for alias, module in sorted(imports.items())]
    lines = program.splitlines()
    decorators = [f"@{GUARANTEE_ALIAS}.guarantee({text})" for text in renamed]
    first = min([d.lineno for d in target_def.decorator_list] + [target_def.lineno])
    indent = " " * target_def.col_offset
    out = lines[: first - 1] + [indent + d for d in decorators] + lines[first - 1 :]
    # Imports go after any docstring/__future__ imports so the module stays valid.
    insert_at = 0
    for node in tree.body:
        if (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and node is tree.body[0]) or (
            isinstance(node, ast.ImportFrom) and node.module == "__future__"
        ):
            insert_at = node.end_lineno or insert_at
        else:
            break
    out = out[:insert_at] + header + out[insert_at:]
    return "\n".join(out) + "\n", renamed


def _child() -> int:
    from clauz3.prover.pipeline import ProofRequest, prove_file

    try:
        doc = json.loads(sys.stdin.buffer.read(2 * 1024 * 1024 + 1))
        source, added = augment(doc["program"], doc.get("target") or "main", dict(doc.get("imports") or {}),
                                list(doc["clauses"]))
    except (ValueError, KeyError, SyntaxError, EntailmentError) as exc:
        print(json.dumps({"error": f"cannot build the policy program: {exc}"}))
        return 0
    with tempfile.TemporaryDirectory(prefix="clauz3-policy-") as tmp:
        path = Path(tmp) / "policy_program.py"
        path.write_text(source, encoding="utf-8")
        req = ProofRequest(
            path=path,
            trusted_roots=[Path(p) for p in doc.get("trusted_roots") or ()],
            import_roots=[Path(p) for p in doc.get("import_roots") or ()],
            target=doc.get("target") or "main",
            proof_timeout=max(0.5, float(doc.get("timeout_seconds") or 20.0) - 0.2),
            use_cache=False,
        )
        outcome = prove_file(req, project_root=Path(doc.get("project") or tmp))
    entry = outcome.entry
    if entry.get("status") in ("refused", "error") or entry.get("target_missing"):
        # POL-4: a program failing the structural checks never fires an allow rule.
        print(json.dumps({"entailed": False, "why": "program refused"}))
        return 0
    mine = [o for o in entry.get("obligations", [])
            if o.get("kind") == "guarantee" and GUARANTEE_ALIAS not in str(o.get("expression"))
            and ALIAS_PREFIX in str(o.get("expression"))]
    if len(mine) < len(added):
        print(json.dumps({"error": "the rule yielded no obligations"}))
        return 0
    if any(o.get("reason") == "deadline" for o in mine):
        print(json.dumps({"error": "policy evaluation deadline passed"}))
        return 0
    print(json.dumps({"entailed": all(o.get("conclusion") == "proved" for o in mine)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(_child())
