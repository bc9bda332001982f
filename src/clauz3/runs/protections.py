"""Which of issue 19's protections a run has, and the words for those it lacks.

The worker asks here once it knows the program's effects: the network plan (runs/netguard.py), the
read-only trusted code (runs/confine.py) and the sandbox itself. Every missing protection becomes
one sentence in the request's ``sandbox.gaps``; the card shows them, and the authority lets no
policy or remembered approval decide such a run.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from clauz3.runs.confine import Confinement, protected_entries
from clauz3.runs.netguard import NetPlan, declaring_modules, plan

if TYPE_CHECKING:
    from clauz3.language.ir import CheckedProgram
    from clauz3.language.layer import Layer


def enter_confinement(project: Path, data: Path, trusted_roots: Sequence[str]) -> Confinement | None:
    """runs/confine.py's namespace for a sandboxed run (None when the run is not sandboxed at all).
    Call before the first thread starts: a user namespace needs a single-threaded process."""
    from clauz3.runs import confine, sandbox

    try:
        if sandbox.probe(workspace=project, data_dir=data).mode != "landlock":
            return None
        return confine.enter(project, list(trusted_roots))
    except Exception as exc:  # never fatal here: the request names the gap and the person decides
        return Confinement("unavailable", f"{type(exc).__name__}: {exc}"[:200])


def network_plan(program: CheckedProgram, layer: Layer, abi: int | None, *, sandboxed: bool) -> NetPlan:
    return plan(declaring_modules(program.effects, layer.modules), abi, sandboxed=sandboxed)


def gaps(*, sandbox_mode: str, sandbox_detail: str, network: NetPlan | None, confinement: Confinement | None,
         project: Path, trusted_roots: Sequence[str]) -> list[str]:
    if sandbox_mode != "landlock":
        return [f"This run is not sandboxed: {sandbox_detail}."]
    found = []
    if network is not None and network.gap:
        found.append(network.gap)
    if (confinement is None or not confinement.active) and protected_entries(project, trusted_roots):
        why = confinement.detail if confinement is not None else "not entered"
        found.append(f"This run could change the trusted libraries and .clauz3/ in the workspace: {why}.")
    return found
