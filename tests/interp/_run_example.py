"""Subprocess helper (TL-6: one layer per process): check an example program and execute it.

Usage: python _run_example.py IMPORT_ROOT PROGRAM [STEP_BUDGET]; prints the result as JSON.
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

from clauz3.interp import execute
from clauz3.language import check_program
from clauz3.language.layer import load_layer
from clauz3.prover.casetest import library_roots


def main() -> None:
    root, program_path = Path(sys.argv[1]), Path(sys.argv[2])
    budget = int(sys.argv[3]) if len(sys.argv) > 3 else 1_000_000
    trusted, imports = library_roots(root)
    layer = load_layer(trusted, imports)
    program = check_program(program_path, layer, "main", [])
    out = io.StringIO()
    result = execute(program, layer.effects, stdout=out, step_budget=budget)
    print(json.dumps({
        "outcome": result.outcome,
        "error": result.error,
        "report_path": result.report_path,
        "trace": result.trace_json(),
        "stdout": out.getvalue(),
    }))


if __name__ == "__main__":
    main()
