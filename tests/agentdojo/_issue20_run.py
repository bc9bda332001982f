"""Subprocess helper (one layer per process): prove an AgentDojo suite program, then run it on the
environment AgentDojo loads, and print what happened as JSON.

Usage: python _issue20_run.py SUITE PROGRAM
"""

from __future__ import annotations

import importlib
import io
import json
import sys
from pathlib import Path

from agentdojo.functions_runtime import FunctionsRuntime
from agentdojo.task_suite.load_suites import get_suite

from clauz3.interp import execute
from clauz3.language import check_program
from clauz3.language.layer import load_layer
from clauz3.prover.api import prove
from clauz3.prover.casetest import library_roots

ROOT = Path(__file__).resolve().parents[2]


def main() -> None:
    suite_name, program_path = sys.argv[1], Path(sys.argv[2])
    library = ROOT / "examples" / "agentdojo" / suite_name
    trusted, imports = library_roots(library)
    layer = load_layer(trusted, imports)
    program = check_program(program_path, layer, "main", [])
    proof = prove(program)
    suite = get_suite("v1.2.1", suite_name)
    env = suite.load_and_inject_default_environment({})
    world = importlib.import_module(f"tools.{suite_name}.trusted.world")
    calls = world.bind(env, FunctionsRuntime(suite.tools))
    result = execute(program, layer.effects, stdout=io.StringIO())
    print(json.dumps({
        "verdicts": [[o.subject, o.conclusion, o.result] for o in proof.obligations],
        "outcome": result.outcome,
        "error": result.error,
        "called": [c.function for c in calls],
        "sent_bodies": [e.body for e in env.inbox.sent] if hasattr(env, "inbox") else None,
    }))


if __name__ == "__main__":
    main()
