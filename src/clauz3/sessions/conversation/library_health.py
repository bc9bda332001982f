"""Libraries whose manifest is broken (issue 22 item 4): shown with their error, kept out of new conversations.

A present domain whose ``clauz3.yaml`` does not load (invalid YAML, a schema error) is not a library
the person can rely on: the catalogue would describe it as "(no manifest)". Here each such domain gets
its error, the file as the person knows it and the line, and the selection a new conversation starts
with leaves it out until the file is fixed (the person can still read the error in Libraries).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import TypedDict

from clauz3.layers.inventory import PresentDomain, present_domains
from clauz3.layers.locations import Target
from clauz3.layers.manifest import ManifestError, load_manifest


class ManifestProblem(TypedDict):
    domain: str
    file: str
    line: int
    column: int
    problem: str
    text: str


def _display(p: PresentDomain, target: Target) -> str:
    """The manifest's path as the person knows it: relative to the project when it lies inside."""
    path = p.domain_dir / "clauz3.yaml"
    if target.project is not None:
        try:
            return path.resolve().relative_to(Path(target.project).resolve()).as_posix()
        except ValueError:
            pass
    return str(path)


def problem_of(p: PresentDomain, target: Target) -> ManifestProblem | None:
    """The manifest error of one present domain, or None when its manifest loads (or there is none)."""
    if p.manifest_error is None:
        return None
    path = p.domain_dir / "clauz3.yaml"
    display = _display(p, target)
    line, column, problem = 1, 1, p.manifest_error
    if os.path.lexists(path):
        try:
            load_manifest(path, kind="domain", domain=p.name, display=display)
        except ManifestError as exc:
            line, column = exc.line, exc.col
            problem = f"{exc.field}: {exc.problem}" if exc.field else exc.problem
        except OSError as exc:
            problem = f"cannot be read ({exc.strerror or exc})"
    text = (f"The manifest of {p.name} has an error: {display}, line {line}: {problem}. "
            f"Until you fix it, {p.name} is left out of new conversations; fix the file, then reload this page.")
    return ManifestProblem(domain=p.name, file=display, line=line, column=column, problem=problem, text=text)


def manifest_problems(project: str | Path, data: Path | None) -> dict[str, ManifestProblem]:
    """``{domain: problem}`` for every present domain of the project whose manifest does not load."""
    target = Target.for_project(Path(project), data)
    out: dict[str, ManifestProblem] = {}
    for name, p in present_domains(target).items():
        found = problem_of(p, target)
        if found is not None:
            out[name] = found
    return out


def without_broken(domains: Iterable[str], problems: dict[str, ManifestProblem]) -> list[str]:
    return [d for d in domains if d not in problems]


def starting_without_broken(problems: dict[str, ManifestProblem], left_out: Iterable[str]) -> str | None:
    """The one-time notice of a new conversation that left broken libraries out, or None."""
    names = [d for d in left_out if d in problems]
    if not names:
        return None
    parts = [f"{problems[d]['file']} (line {problems[d]['line']})" for d in names]
    return (f"Starting without {', '.join(names)}: its manifest has an error ({'; '.join(parts)}). "
            "Fix the file, then add the library from + Libraries.")
