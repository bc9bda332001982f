"""Subprocess helper for issue 18: ``famrun.py`` with the checker's loop fixpoint planted away.

The plant (a test hook, never in src/) makes every loop head keep the types it had before the loop,
as the checker did before issue 18, so a program whose later iterations hand a name ``None`` passes
the checker with a stale ``str`` type. The prover must still not prove it: every ``T | None`` an
operation unwraps is an obligation that it is not None (``values.val`` -> ``Executor.none_used``).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))


def main() -> None:
    from clauz3.language import statements

    def stale_head(v: object, m: object) -> object:
        return v  # the loop head never learns what an iteration leaves behind

    statements._loop_head = stale_head  # type: ignore[assignment]  # the plant replaces the fixpoint step
    import famrun

    famrun.main()


if __name__ == "__main__":
    main()
