"""Subprocess helper for issue 18: ``famrun.py`` with one of the checker's loop facts planted away.

The plants (test hooks, never in src/) put back what the checker did before issue 18:

* ``head``: every loop head keeps the types it had before the loop, so a program whose later
  iterations hand a name ``None`` passes the checker with a stale ``str`` type. The prover must
  still not prove it: every ``T | None`` an operation unwraps is an obligation that it is not None
  (``values.val`` -> ``Executor.none_used``).
* ``zero``: a loop's length upper bound is taken as a lower bound, so a name bound only inside a
  loop that may run zero times passes as bound. The prover must still not prove a read of it: a
  name some path leaves unbound is an ``UnboundLocalError`` obligation (``join.merge_env``).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))


def main() -> None:
    from typing import Any

    from clauz3.language import body, statements

    plant = sys.argv.pop(1)
    if plant == "head":
        def stale_head(v: Any, m: Any) -> Any:
            return v  # the loop head never learns what an iteration leaves behind

        statements._loop_head = stale_head
    elif plant == "zero":
        def upper_as_lower(self: Any, e: Any) -> int:
            return int(self.static_len(e) or 0)  # the unrolling bound taken as the count

        body.Body.min_len = upper_as_lower  # type: ignore[method-assign]  # the plant
    else:
        raise SystemExit(f"unknown plant {plant!r}")
    import famrun

    famrun.main()


if __name__ == "__main__":
    main()
