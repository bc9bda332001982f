"""Red-team driver for a layer written by the test (``--root DIR``): runs ``redteam_check`` over it.

``python redteam2_check.py --root DIR [redteam_check options] FILE...``. The layer is DIR/tools/trick
(see ``tests/soundness/test_redteam2.py``): effects named like builtins, two effects both named
``pay`` in different modules, contracts that read module globals. Calls are recorded under the
effect's full name, so the plain judge below tells the two ``pay`` effects apart.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import gen_check  # noqa: E402
import redteam_check  # noqa: E402

EFFECTS = "tools.trick.trusted.effects."
OTHER = "tools.trick.trusted.other."
LIMIT, ALLOWED = 2, (1, 2)  # the values the layer's contracts.py is written with


def trick_holds(helper: str, args: Mapping[str, Any], calls: list[tuple[str, dict[str, Any]]]) -> bool:
    """The trick layer's contracts on the real calls, with the globals as the layer file wrote them."""
    def of(name: str) -> list[dict[str, Any]]:
        return [a for n, a in calls if n == name]

    counts = {"prints_at_most": EFFECTS + "print", "counts_at_most": EFFECTS + "len",
              "picks_at_most": EFFECTS + "max", "pays_at_most": EFFECTS + "pay", "other_pays_at_most": OTHER + "pay"}
    if helper in counts:
        return len(of(counts[helper])) <= args["n"]
    if helper == "under_limit":
        return sum(a["amount"] for a in of(EFFECTS + "pay")) <= LIMIT
    if helper == "allowed_amounts":
        return all(a["amount"] in ALLOWED for a in of(EFFECTS + "pay"))
    raise KeyError(f"no judge for {helper}")


def stubs(self: gen_check.Lab, program: Any, rng: Any, calls: list[tuple[str, dict[str, Any]]], literals: Any
          ) -> dict[str, Callable[..., Any]]:
    from clauz3.difftest.run import StubFactory
    from clauz3.difftest.sample import Sampler

    factory = StubFactory(program, self.layer.effects, Sampler(rng, program, 3, literals))
    return {name: gen_check.recording(factory.stub(effect), name, calls)
            for name, effect in sorted(program.effects.items())}


def main(argv: list[str]) -> int:
    root = Path(argv[argv.index("--root") + 1])
    rest = [a for i, a in enumerate(argv) if a != "--root" and (i == 0 or argv[i - 1] != "--root")]
    gen_check.IMPORT_ROOT = root
    gen_check.TRUSTED_ROOT = root / "tools" / "trick" / "trusted"
    gen_check.holds = trick_holds
    gen_check.Lab.stubs = stubs  # type: ignore[method-assign]  # full names, not short ones
    return redteam_check.main(["--layer", "gen", *rest])


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
