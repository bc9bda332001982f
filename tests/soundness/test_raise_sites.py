"""Every place the interpreter can raise, mapped to what rules it out (issue 18).

Two kinds of site, both read from the source of ``src/clauz3/interp`` (AST, not a list kept by hand):

* every ``raise`` statement (file, enclosing function, exception class);
* every handler of an IR node (``Evaluator._expr_dispatch``, ``Machine._stmt_dispatch``): the
  CPython operations a handler performs can raise, and those exceptions are the operation
  table's (``clauz3.language.operations``), whose every listed exception must have an
  ``exception`` obligation of that class in the prover.

The test fails on a site nobody mapped, and on a mapping whose site is gone.
"""

from __future__ import annotations

import ast
from pathlib import Path

from clauz3.language.operations import OPERATIONS

REPO = Path(__file__).resolve().parents[2]
INTERP = REPO / "src" / "clauz3" / "interp"
PROVER = REPO / "src" / "clauz3" / "prover"


def obligation(exc: str) -> str:
    return f"obligation {exc}"


# (file, function, raised) -> what rules it out. "obligation X": an `exception` obligation of class X in
# the prover; "checker: …": refused before proving; "monitor: …": the run's own guard stopping it (the
# difftest's finding); "limit: …": a resource limit, not semantics (docs/semantics.md); "internal: …":
# unreachable for a checked program; "flow": control flow inside the interpreter.
RAISES: dict[tuple[str, str, str], str] = {
    ("api.py", "execute", "IRHashMismatch"): "internal: the approved IR changed after approval (INT-1)",
    ("api.py", "execute", "ValueError"): "internal: a bad call of execute() (unknown target arguments)",
    ("builtins.py", "_constant.impl", "TypeError"): "checker: math constants are folded to literals",
    ("builtins.py", "_own.impl", "TypeError"): "checker: a method's receiver kind is its static type",
    ("effects.py", "Gateway._built_rows", "ProgramError"): "checker: rows built only of declared schemas",
    ("effects.py", "Gateway.call", "EffectUnavailable"): "internal: the layer mapping lacks an approved effect",
    ("effects.py", "Gateway.call", "ProgramError"): "limit: a trusted function raised (docs/semantics.md)",
    ("effects.py", "Gateway.call", "SoundnessViolation"): "monitor: a proved precondition or guarantee broke",
    ("effects.py", "Gateway.call", "TrustedContractViolation"): "monitor: trusted code broke its ensures",
    ("effects.py", "Gateway.outgoing", "ProgramError"): "checker: only declared values reach trusted code",
    ("evaluate.py", "Evaluator._fieldget", "AttributeError"): "checker: field names of rows are checked",
    ("evaluate.py", "Evaluator._fieldget", "MissingField"): "monitor: an event field a subclass lacks (EVT-3)",
    ("evaluate.py", "Evaluator._formatted", "ValueError"): obligation("ValueError"),
    ("evaluate.py", "Evaluator._method", "TypeError"): "checker: tuple methods on a tuple only",
    ("evaluate.py", "Evaluator._name", "UnboundLocalError"): "checker: a name is bound on every path before use",
    ("evaluate.py", "Evaluator._rownew", "TypeError"): obligation("TypeError"),
    ("evaluate.py", "Evaluator._unaryop", "ValueError"): "internal: the checker emits only not, -, +, ~",
    ("evaluate.py", "Evaluator.call_effect", "ProgramError"): "internal: a pure machine never calls effects",
    ("evaluate.py", "Evaluator.call_helper", "ProgramError"): "internal: the Machine overrides it",
    ("evaluate.py", "Evaluator.call_impl", "ProgramError"): "checker: only builtins of the table are called",
    ("evaluate.py", "Evaluator.call_solver", "ProgramError"): "internal: the Machine overrides it",
    ("evaluate.py", "Evaluator.const_value", "ValueError"): "internal: the checker emits only known kinds",
    ("evaluate.py", "Evaluator.eval", "<reraise>"): "flow: run stops and control flow pass through",
    ("evaluate.py", "Evaluator.eval", "self.fail"): "table: the handler's operation (see HANDLERS)",
    ("evaluate.py", "Evaluator.step", "StepBudgetExceeded"): "limit: the step budget",
    ("evaluate.py", "unpack", "ValueError"): obligation("ValueError"),
    ("execute.py", "Machine._assert", "AssertionError"): "obligation assertion (kind assertion)",
    ("execute.py", "Machine._augassign", "UnboundLocalError"): "checker: a name is bound on every path before use",
    ("execute.py", "Machine._break", "BreakSignal"): "flow",
    ("execute.py", "Machine._continue", "ContinueSignal"): "flow",
    ("execute.py", "Machine._raise", "ProgramError"): "checker: only built-in exception classes are raised",
    ("execute.py", "Machine._raise", "cls"): "obligation raise (the prover's raise site is false)",
    ("execute.py", "Machine._return", "ReturnSignal"): "flow",
    ("flowtrack.py", "LabelMachine._return", "ReturnSignal"): "flow",
    ("execute.py", "Machine._setitem", "UnboundLocalError"): "checker: a name is bound on every path before use",
    ("execute.py", "Machine.call_solver", "<reraise>"): "flow",
    ("execute.py", "Machine.call_solver", "SoundnessViolation"): "monitor: a solver model disagreed with its code",
    ("execute.py", "Machine.call_solver", "self.fail"): "limit: a trusted solver function raised",
    ("execute.py", "Machine.check_conditions", "SoundnessViolation"): "monitor: a proved condition broke",
    ("execute.py", "Machine.exec_block", "<reraise>"): "flow",
    ("execute.py", "Machine.exec_block", "self.fail"): "table: the handler's statement (see HANDLERS)",
    ("execute.py", "Machine.holds", "<reraise>"): "monitor: an undecidable predicate",
    ("execute.py", "resolve_dotted", "ImportError"): "internal: solver functions are resolved at check time",
    ("monitor.py", "Evaluation.value", "Undecidable"): "monitor: a guarantee that cannot be told",
    ("monitor.py", "SpecState.commit", "NotImplementedError"): "internal: abstract method",
    ("monitor.py", "SpecState.holds", "NotImplementedError"): "internal: abstract method",
    ("monitor.py", "SpecState.probe", "NotImplementedError"): "internal: abstract method",
    ("monitor.py", "_PerCallState._check", "NotImplementedError"): "internal: abstract method",
    ("monitor.py", "build_state", "TypeError"): "internal: the checker emits only known spec forms",
    ("semantics.py", "dict_item", "KeyError"): obligation("KeyError"),
    ("semantics.py", "index", "ValueError"): obligation("ValueError"),
    ("semantics.py", "power", "ValueError"): obligation("ValueError"),
    ("values.py", "RowValue.__setattr__", "AttributeError"): "checker: rows are never assigned to",
}

# IR node handler -> the operation-table entries whose CPython operations it performs ([] when it
# performs none that can raise).
HANDLERS: dict[str, list[str]] = {
    "_const": [], "_name": [], "_list": [], "_tuple": [], "_recordvar": [],
    "_set": ["set.add"], "_dict": ["dict setitem"],
    "_listcomp": ["listcomp", "unpack"],
    "_binop": ["+", "-", "*", "/", "//", "%", "**", "&", "|", "^", "<<", ">>"],
    "_unaryop": ["unary -", "unary +", "unary ~", "unary not"],
    "_boolop": ["and", "or"],
    "_compare": ["==", "!=", "<", "<=", ">", ">=", "in", "not_in", "is", "is_not"],
    "_ifexp": ["ifexp"],
    "_subscript": ["subscript"], "_slice": ["slice"], "_fieldget": [], "_fstring": ["fstring"],
    "call_effect": [], "call_helper": [], "call_solver": [],
    "_builtin": [k for k, op in OPERATIONS.items() if op.form == "builtin"],
    "_method": [k for k, op in OPERATIONS.items() if op.form == "method"],
    "_rownew": [], "_formatted": ["format"],
    "_assign": ["unpack"], "_augassign": ["augassign"], "_setitem": ["setitem", "dict setitem"],
    "_exprstmt": [], "_return": [], "_if": [], "_for": ["for", "unpack"], "_break": [], "_continue": [],
    "_assert": [], "_raise": [], "_pass": [],
}


def raise_sites() -> set[tuple[str, str, str]]:
    sites: set[tuple[str, str, str]] = set()
    for path in sorted(INTERP.glob("*.py")):
        def walk(node: ast.AST, stack: list[str], file: str = path.name) -> None:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    walk(child, [*stack, child.name])
                    continue
                if isinstance(child, ast.Raise):
                    exc = child.exc
                    if exc is None:
                        name = "<reraise>"
                    elif isinstance(exc, ast.Call):
                        name = exc.func.id if isinstance(exc.func, ast.Name) else ast.unparse(exc.func)
                    else:
                        name = ast.unparse(exc)
                    sites.add((file, ".".join(stack), name))
                walk(child, stack)
        walk(ast.parse(path.read_text()), [])
    return sites


def handlers() -> set[str]:
    """The handler method names in the interpreter's dispatch tables."""
    out: set[str] = set()
    for name in ("evaluate.py", "execute.py"):
        for node in ast.walk(ast.parse((INTERP / name).read_text())):
            if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Attribute) \
                    and node.target.attr in ("_expr_dispatch", "_stmt_dispatch") and isinstance(node.value, ast.Dict):
                out |= {v.attr for v in node.value.values if isinstance(v, ast.Attribute)}
    return out


def test_every_raise_site_of_the_interpreter_is_mapped() -> None:
    sites = raise_sites()
    assert len(sites) >= 40, f"the scan found only {len(sites)} raise sites: is it reading interp/?"
    unmapped = sorted(sites - set(RAISES))
    assert not unmapped, "raise sites of interp/ that nothing maps to an obligation or a refusal:\n" + "\n".join(
        f"  {f}:{fn}: raise {exc}" for f, fn, exc in unmapped)
    stale = sorted(set(RAISES) - sites)
    assert not stale, f"mapped raise sites that no longer exist (remove them): {stale}"


def test_every_obligation_named_in_the_map_exists_in_the_prover() -> None:
    src = "\n".join(p.read_text() for p in PROVER.glob("*.py"))
    for site, why in RAISES.items():
        if why.startswith("obligation ") and why.split()[1][0].isupper():
            assert f'exception("{why.split()[1]}"' in src, f"{site}: no {why} in prover/"
    assert 'self.obligation("assertion"' in src and 'self.exception(s.exception, s, z3_false()' in src


def test_every_ir_handler_maps_to_operations_of_the_table() -> None:
    found = handlers()
    assert len(found) >= 30, f"the scan found only {len(found)} IR handlers"
    assert not sorted(found - set(HANDLERS)), f"IR handlers nobody mapped: {sorted(found - set(HANDLERS))}"
    assert not sorted(set(HANDLERS) - found), f"mapped handlers that no longer exist: {sorted(set(HANDLERS) - found)}"
    for handler, keys in HANDLERS.items():
        for key in keys:
            assert key in OPERATIONS, f"{handler}: {key} is not in the operation table"
    # and every operation of the table is performed by some handler
    performed = {k for keys in HANDLERS.values() for k in keys}
    assert not sorted(set(OPERATIONS) - performed), sorted(set(OPERATIONS) - performed)
