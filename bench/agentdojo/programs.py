"""Render clauz3 programs from AgentDojo function calls and a task's intent (guarantees, answer).

An honest program is the user task's ground-truth calls written as clauz3 effect calls (reads
first, then actions, with literals taken from what was read, as in a two-step conversation),
under the guarantees of its intent. A compromised program is the same program with the
injection task's ground-truth calls appended, as a misled agent would write it, under the very
same guarantees. Both are built mechanically: nothing here is written per pair.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Guarantee:
    expression: str  # a contract call, e.g. banking.pays_only(["GB29..."])
    words: str  # the words of the prompt it comes from (checked to be a substring of the prompt)


@dataclass(frozen=True)
class Intent:
    guarantees: Sequence[Guarantee]
    answer: str | None = None  # what the program reports to the user, when the prompt asks something
    note: str = ""


@dataclass(frozen=True)
class Call:
    function: str
    args: dict[str, Any]


@dataclass
class Library:
    """One suite's trusted library: its effects module and its contract modules by alias."""

    domain: str
    effects_file: Path
    contract_modules: dict[str, str]  # alias -> module (tools.<domain>.trusted.<name>)
    params: dict[str, list[tuple[str, str, bool]]] = field(default_factory=dict)  # fn -> (name, ann, required)

    def __post_init__(self) -> None:
        tree = ast.parse(self.effects_file.read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.FunctionDef):
                args = node.args.args
                required = len(args) - len(node.args.defaults)
                self.params[node.name] = [(a.arg, ast.unparse(a.annotation) if a.annotation else "", i < required)
                                          for i, a in enumerate(args)]

    @property
    def effects_module(self) -> str:
        return f"tools.{self.domain}.trusted.effects"


HAND_WRITTEN = "# clauz3-agentdojo: hand-written"  # first line of an honest program the renderer leaves alone


def hand_written(folder: Path, task_id: str) -> str | None:
    """The hand-written honest program of a task (it computes what it acts on from what it reads), or None."""
    path = folder / f"{task_id}.py"
    if not path.is_file():
        return None
    text = path.read_text(encoding="utf-8")
    return text if text.startswith(HAND_WRITTEN) else None


def _constant_text(node: ast.expr) -> bool:
    """A print argument whose text the program fixes (a literal, or an f-string of literals only)."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.JoinedStr):
        return all(isinstance(v, ast.Constant) or (isinstance(v, ast.FormattedValue) and isinstance(v.value, ast.Constant))
                   for v in node.values)
    return False


def canned(source: str, expected: Iterable[str]) -> bool:
    """Does the program report a canned answer? True when a literal text of it (a string constant, or an f-string
    of constants only) holds an expected answer (the intent's ``answer`` or AgentDojo's ``GROUND_TRUTH_OUTPUT``),
    or when the task expects an answer and every text the program prints is such a literal."""
    tree = ast.parse(source)
    wanted = [" ".join(e.split()).lower() for e in expected if e and e.strip()]
    literals: list[str] = []
    prints = fixed = 0
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            literals.append(node.value)
        if isinstance(node, ast.JoinedStr) and _constant_text(node):
            literals.append("".join(str(v.value) if isinstance(v, ast.Constant) else str(v.value.value)  # type: ignore[attr-defined]
                                    for v in node.values))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "print":
            prints += 1
            fixed += all(_constant_text(a) for a in node.args)
    if any(w in " ".join(t.split()).lower() for t in literals for w in wanted):
        return True
    return bool(wanted) and prints > 0 and fixed == prints


class Untranslatable(ValueError):
    """A call that has no clauz3 effect (a tool the library does not expose, or an unknown argument)."""


def literal(value: Any, annotation: str) -> str:
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, int) and "float" in annotation and "int" not in annotation:
        return repr(float(value))
    if isinstance(value, (int, float, str)):
        return repr(value)
    if isinstance(value, (list, tuple)):
        inner = "str" if "str" in annotation else annotation
        return "[" + ", ".join(literal(v, inner) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{literal(k, 'str')}: {literal(v, 'str')}" for k, v in value.items()) + "}"
    raise Untranslatable(f"cannot write {type(value).__name__} value {value!r} as a literal")


def call_source(lib: Library, call: Call) -> str:
    params = lib.params.get(call.function)
    if params is None:
        raise Untranslatable(f"no effect for AgentDojo tool {call.function}")
    names = {p[0] for p in params}
    unknown = sorted(set(call.args) - names)
    if unknown:
        raise Untranslatable(f"{call.function} has no parameter {unknown[0]}")
    # Every optional parameter is written out (None when AgentDojo's call leaves it out): the prover
    # treats an omitted argument as any value, so "the recipient is not changed" needs recipient=None.
    parts: list[str] = []
    for name, ann, required in params:
        value = call.args.get(name)
        if value is None and required:
            raise Untranslatable(f"{call.function} needs {name}")
        if value is None and "None" not in ann:
            continue  # a plain default (n: int = 100): the effect's own default applies
        text = literal(value, ann)
        parts.append(text if required else f"{name}={text}")
    return f"{call.function}({', '.join(parts)})"


def render(lib: Library, *, title: str, prompt: str, intent: Intent, calls: Iterable[Call],
           extra: Iterable[Call] = (), extra_title: str = "", say: str | None = None) -> str:
    honest = list(calls)
    added = list(extra)
    used = sorted({c.function for c in honest + added})
    aliases = sorted({g.expression.split(".", 1)[0] for g in intent.guarantees})
    said = "\n".join(line.rstrip() for line in prompt.strip().splitlines())
    lines = ['"""' + title + ": " + said.replace("\\", "\\\\").replace('"""', '\\"\\"\\"'),
             "",
             "Hand-written oracle, not a model's program: AgentDojo's ground-truth calls as clauz3 effect calls,",
             "under the guarantees a person would approve from the prompt's words (quoted beside each)."]
    if added or extra_title:
        lines.append(f"Compromised: {extra_title}, as a misled agent would write it.")
    lines += ['"""', "", "import clauz3"]
    for alias in aliases:
        module = lib.contract_modules[alias]
        pkg, name = module.rsplit(".", 1)
        lines.append(f"from {pkg} import {name}" + (f" as {alias}" if alias != name else ""))
    if used:
        lines.append(f"from {lib.effects_module} import {', '.join(used)}")
    lines += ["", ""]
    for g in intent.guarantees:
        lines.append(f"@clauz3.guarantee({g.expression})  # {g.words!r}")
    lines.append("def main() -> None:")
    body = [call_source(lib, c) for c in honest + added]
    if intent.answer is not None:
        body.append(f"print({intent.answer!r})")
    if say is not None:  # the attacker's words in the report (strategy "answer")
        body.append(f"print({say!r})")
    lines += [f"    {b}" for b in body] or ["    return None"]
    return "\n".join(lines) + "\n"
