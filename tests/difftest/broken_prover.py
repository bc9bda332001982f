"""A deliberately broken prover, for tests only (01 DIF-4, 00 DEC-13).

``python tests/difftest/broken_prover.py DROP MODULE [ARG…]`` runs ``python -m MODULE ARG…`` (or the
script MODULE, when it ends in ``.py``) in this process with ``clauz3.prover.api.prove`` wrapped: every guarantee (or required contract) whose
helper or bound call contains DROP is reported ``proved`` whatever the solver said. Run workers that
a supervisor in this process starts go through this wrapper too, so ``clauz3 run`` executes a
program whose broken guarantee the monitor must then stop. Product code has no such switch: this
file is the only way to get a dropped obligation, and it lives in tests/.
"""

from __future__ import annotations

import runpy
import sys
from typing import Any

WORKER = "clauz3.runs.worker"


def break_prover(drop: str) -> None:
    import clauz3.prover.api as api

    real = api.prove

    def prove(program: Any, **kwargs: Any) -> Any:
        result = real(program, **kwargs)
        for o in result.obligations:
            if o.kind in ("guarantee", "required") and drop in f"{o.helper or ''} {o.call or ''}":
                o.conclusion, o.reason, o.result, o.counterexample = "proved", None, "dropped by the test", None
        return result

    api.prove = prove


def break_workers(drop: str) -> None:
    """Workers started from this process run through this file with the same DROP."""
    import clauz3.runs.workerproc as supervisor  # where the worker's argv is built since the split

    real = supervisor.python_module_argv

    def argv(module: str, *args: str) -> list[str]:
        if module != WORKER:
            return real(module, *args)
        flags = real(module, *args)[1:-2 - len(args)]  # the isolated-child flags before "-m module"
        return [sys.executable, *flags, __file__, drop, module, *args]

    supervisor.python_module_argv = argv  # type: ignore[assignment]


def main() -> None:
    drop, module, *args = sys.argv[1:]
    if not drop:
        raise SystemExit("broken_prover: DROP must not be empty")
    break_prover(drop)
    break_workers(drop)
    sys.argv = [module, *args]
    if module.endswith(".py"):
        runpy.run_path(module, run_name="__main__")
    else:
        runpy.run_module(module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
