"""``clauz3 policy-check``: what an operator policy would decide for a program (03 §17.4, CLI-7).

The program is proved as the runner proves it; then the policy is evaluated with the authority's
own rule walk (``evaluate_policy``) without executing anything or contacting a service. Entailment
uses the prover's ``clauz3.prover.entailment.entails`` when that module exists; otherwise this
command adds each rule's clauses as guarantees on the target and proves the augmented program
(POL-3) in this process — the CLI is not the authority, so LIFE-5 does not apply here.
"""

from __future__ import annotations

import argparse
import ast
import asyncio
import re
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from clauz3.commands._errors import CommandError

HELP = "Show what an approval policy decides for a program, without running it."

_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
EXPECT = ("auto_approved", "auto_rejected", "ask")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from clauz3.commands._roots import add_root_arguments

    parser.add_argument("program", nargs="?", default=None, metavar="PROGRAM|-", help="the agent program (- = stdin)")
    parser.add_argument("--policy", required=True, metavar="FILE", help="the operator policy JSON file")
    add_root_arguments(parser)
    parser.add_argument("--allow-import", action="append", default=[], metavar="MOD",
                        help="add a module or dotted prefix to the import allowlist (default: none)")
    parser.add_argument("--target", default="main", help="function to check (default: main)")
    parser.add_argument("--expect", choices=EXPECT, default=None,
                        help="exit 1 unless the outcome is this one (default: no expectation)")
    parser.add_argument("--policy-timeout", default="20", metavar="S",
                        help="total seconds for rule evaluation, 1–120 (default: 20)")


def _unique(base: str, taken: set[str]) -> str:
    name = base
    while name in taken:
        name += "_"
    taken.add(name)
    return name


def augment(source: str, target: str, imports: dict[str, str], clauses: tuple[str, ...]) -> tuple[str, list[str]]:
    """Add ``clauses`` as guarantees on ``target`` with collision-free aliases (POL-3).

    Returns the new source and the guarantee expressions as the checker will report them.
    """
    tree = ast.parse(source)
    taken = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    taken |= {a.asname or a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom)
              for a in n.names}
    mapping = {alias: _unique(f"c3policy_{alias}", taken) for alias in imports}
    clauz3_alias = _unique("c3policy_clauz3", taken)

    class Rename(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.AST:
            if node.id in mapping:
                return ast.copy_location(ast.Name(mapping[node.id], node.ctx), node)
            return node

    expressions = [ast.unparse(Rename().visit(ast.parse(c, mode="eval")).body) for c in clauses]
    func = next((n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == target), None)
    if func is None:
        raise ValueError(f"target {target} not found")
    lines = source.splitlines()
    indent = " " * func.col_offset
    first = min([d.lineno for d in func.decorator_list] + [func.lineno]) - 1
    decorators = [f"{indent}@{clauz3_alias}.guarantee({e})" for e in expressions]
    lines[first:first] = decorators
    import_lines = [f"import clauz3 as {clauz3_alias}"]
    for alias, module in imports.items():
        parent, _, leaf = module.rpartition(".")
        import_lines.append(f"from {parent} import {leaf} as {mapping[alias]}" if parent
                            else f"import {module} as {mapping[alias]}")
    last_import = max([n.end_lineno or n.lineno for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)]
                      + [0])
    if last_import == 0 and tree.body and isinstance(tree.body[0], ast.Expr) \
            and isinstance(getattr(tree.body[0], "value", None), ast.Constant):
        last_import = tree.body[0].end_lineno or 1  # after the module docstring
    lines[last_import:last_import] = import_lines
    return "\n".join(lines) + "\n", expressions


def local_entailment(trusted: list[Path], imports: list[Path], allow: list[str], project: Path) -> Callable[[Any], bool]:
    from clauz3.prover.pipeline import ProofRequest, prove_file

    def entails(query: Any) -> bool:
        text, expressions = augment(query.program, query.target, dict(query.imports), tuple(query.clauses))
        with tempfile.TemporaryDirectory(prefix="clauz3-policy-") as tmp:
            path = Path(tmp) / "program.py"
            path.write_text(text, encoding="utf-8")
            outcome = prove_file(ProofRequest(path=path, trusted_roots=trusted, import_roots=imports,
                                              target=query.target, allow_imports=allow,
                                              proof_timeout=max(0.1, float(query.timeout_seconds)), use_cache=False),
                                 project_root=project)
        if outcome.entry.get("status") in ("refused", "error"):
            raise RuntimeError("; ".join(outcome.stderr)[:300] or "the augmented program was refused")
        added = [o for o in outcome.entry.get("obligations", [])
                 if o.get("kind") == "guarantee" and o.get("expression") in expressions]
        if not added:
            raise RuntimeError("the rule yielded no obligations")
        return all(o.get("conclusion") == "proved" for o in added)

    return entails


def _entailment(trusted: list[Path], imports: list[Path], allow: list[str], project: Path) -> Callable[[Any], bool]:
    import importlib

    try:
        module = importlib.import_module("clauz3.prover.entailment")
    except ImportError:
        return local_entailment(trusted, imports, allow, project)
    found = getattr(module, "entails", None)
    return found if callable(found) else local_entailment(trusted, imports, allow, project)


def run(args: argparse.Namespace) -> int:
    from clauz3.approvals.policies import PolicyError, evaluate_policy, load_policy
    from clauz3.commands._roots import resolve_roots
    from clauz3.prover.pipeline import ProofRequest, prove_file

    if not _IDENT.match(args.target) or len(args.target) > 128:
        raise CommandError(f"--target must be an identifier of at most 128 characters, got {args.target!r}")
    try:
        timeout = float(args.policy_timeout)
    except ValueError:
        raise CommandError(f"--policy-timeout must be a number of seconds, got {args.policy_timeout!r}") from None
    if not 1 <= timeout <= 120:
        raise CommandError(f"--policy-timeout must be 1–120 seconds, got {args.policy_timeout}")
    try:
        policy = load_policy(Path(args.policy))
    except PolicyError as exc:
        raise CommandError(str(exc)) from None
    except OSError as exc:
        raise CommandError(f"cannot read --policy {args.policy}: {exc.strerror or exc}") from None
    if args.program is None:
        raise CommandError("no program given (see clauz3 policy-check --help)")
    project = Path.cwd()
    with tempfile.TemporaryDirectory(prefix="clauz3-policy-check-") as tmp:
        if args.program == "-":
            path = Path(tmp) / "program.py"
            path.write_bytes(sys.stdin.buffer.read(262_145)[:262_145])
        else:
            path = Path(args.program)
        try:
            source = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise CommandError(f"cannot read {args.program}: {exc}") from None
        trusted, imports = resolve_roots(args, project=project, program=None if args.program == "-" else path)
        outcome = prove_file(ProofRequest(path=path, trusted_roots=trusted, import_roots=imports, target=args.target,
                                          allow_imports=list(args.allow_import)), project_root=project)
    for line in outcome.stderr:
        print(line, file=sys.stderr)
    if outcome.entry.get("status") in ("refused", "error"):
        return 2
    from clauz3.prover.render import render_entry

    if outcome.exit_code != 0:
        sys.stdout.write(render_entry(outcome.entry))
        print("not submittable: proof failed")
        return 1
    entails = _entailment(trusted, imports, list(args.allow_import), project)
    result = asyncio.run(evaluate_policy(
        policy, program=source, target=args.target, trusted_roots=tuple(str(p) for p in trusted),
        import_roots=tuple(str(p) for p in imports), project=str(project), entails=entails, timeout=timeout))
    for item in result.undecidable:
        print(f"undecidable: {item['rule']}: {item['why']}", file=sys.stderr)
    if result.deny is not None:
        got = "auto_rejected"
        print(f"auto_rejected: {result.deny.name} ({result.deny.reason})")
    elif result.allow is not None:
        got = "auto_approved"
        print(f"auto_approved: {result.allow.name} ({result.allow.reason})")
    else:
        got = "ask"
        print("ask: no rule matched; a person decides")
    return 1 if args.expect is not None and args.expect != got else 0
