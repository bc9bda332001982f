"""Red team of issue 19's automatic decisions: a remembered approval of ``write_file`` meets programs that
reach another effect of the same library in ways the first fixes were not written against (an alias that
borrows the approved effect's name, a whole-module import, a helper function, a call past the facts'
per-call budget). Real ``clauz3 approval-service`` (its prover child), real ``clauz3 run``, real files.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_issue19_automatic import Run, Service, card, remembered_world

__all__ = ["remembered_world"]  # the module-scoped world: one remembered write of notes.txt

GUARD = "@clauz3.guarantee(files.writes_at_most({bound}))\n"
BASE = ("import clauz3\nfrom tools.email.trusted import contracts as emails\n"
        "from tools.email.trusted.effects import send_email\n"
        "from tools.filesystem.trusted import contracts as files\n"
        "from tools.filesystem.trusted import effects as fs\n")

ALIASED = BASE.replace("from tools.email.trusted.effects import send_email\n",
                       "from tools.email.trusted.effects import send_email\n"
                       "from tools.filesystem.trusted.effects import remove as write_file\n") + \
    "\n\n" + GUARD.format(bound=1) + "def main() -> None:\n    write_file('README.md')\n"
WHOLE_MODULE = BASE + "import tools.filesystem.trusted.effects as fx\n\n\n" + GUARD.format(bound=1) + \
    "def main() -> None:\n    fx.remove('README.md')\n"
HELPER = BASE + "\n\ndef tidy(name: str) -> None:\n    fs.remove(name)\n\n\n" + GUARD.format(bound=1) + \
    "def main() -> None:\n    tidy('README.md')\n"
PAST_BUDGET = BASE + "\n\n" + GUARD.format(bound=300) + "def main() -> None:\n" \
    "    for i in range(250):\n        fs.write_file('n' + str(i) + '.txt', 'x')\n" \
    "    fs.remove('README.md')\n"


def attempt(world: tuple[Path, Path, Service], source: str, rid: str) -> None:
    project, data, service = world
    run = Run(project, data, service, source, rid)
    try:
        record = card(service, run)
    except AssertionError:
        code, out = run.wait()  # refused before any request: the checker or the prover said no
        assert code != 0 and "auto_approved" not in out, out
        assert (project / "README.md").exists()
        return
    assert record["decision"] != "auto_approved" and record["state"] == "pending", record
    service.decide(rid, "rejected")
    code, out = run.wait()
    assert code != 0, out
    assert (project / "README.md").exists()


@pytest.mark.parametrize(("source", "rid"), [
    (ALIASED, "req_alias_remove"),
    (WHOLE_MODULE, "req_whole_module"),
    (HELPER, "req_helper_remove"),
    (PAST_BUDGET, "req_past_budget"),
])
def test_a_remembered_write_does_not_cover_a_remove_reached_another_way(
        remembered_world: tuple[Path, Path, Service], source: str, rid: str) -> None:
    attempt(remembered_world, source, rid)
