"""The prover's effect facts of agent programs, as the authority's card reads them, for provenance tests.

One child process per layer (01 TL-6: a process holds one layer), every program of a test module at once;
a program outside the checked subset fails the call with its source and the checker's message."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

_CHILD = """
import json, sys, tempfile
from pathlib import Path
from clauz3.language import check_program
from clauz3.language.layer import load_layer
from clauz3.prover.facts import effect_facts
root, library = Path(sys.argv[1]), sys.argv[2]
layer = load_layer([root / "tools" / library / "trusted"], [root])
out = []
for source in json.loads(sys.stdin.read()):
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "prog.py"
        path.write_text(source)
        try:
            checked = check_program(path, layer)
        except Exception as exc:
            raise SystemExit(f"refused: {source!r}: {exc}")
        out.append(effect_facts(checked))
print(json.dumps(out))
"""


def effect_facts_of(root: Path, library: str, sources: list[str], timeout: float = 240) -> list[dict]:
    """The effect facts of each program in ``sources`` against ``root``'s layer ``tools/<library>/trusted``."""
    done = subprocess.run([sys.executable, "-c", _CHILD, str(root), library], input=json.dumps(sources),
                          capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, done.stderr[-2000:]  # every program is in the checked subset
    facts = json.loads(done.stdout)
    assert len(facts) == len(sources)
    return facts
