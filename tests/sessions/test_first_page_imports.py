"""Issue 13, first minute: what the three first-page processes import before Send can be enabled.

`clauz3 ui demo --tutorial` runs the CLI launcher, the workspace service and the demo agent before the
page's Send enables. None of them may load Z3, the prover's solver side, the language compiler or a
test tool, and the two SDKs that cost most (``acp`` in the service, ``mcp`` in the demo) stay off the
import path: the service never loads ``acp`` (its JSON-RPC edge is our own), the demo loads ``mcp``
once its bridge is spawned. Each entry is imported in a fresh ``python -I`` exactly as it is started, so
an import added anywhere below it fails here.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

# Never on the first-page path of any of the three processes.
HEAVY = ("z3", "clauz3.language", "clauz3.interp", "clauz3.runs.worker", "clauz3.bridge.warm", "hypothesis",
         "playwright", "pytest")
# The prover's client side talks to a child process and is stdlib only; everything else in it solves.
# (`entry`: the typed §4.5 entry the cache and pipeline hand out; `errors`: the layer's error base.)
PROVER_CLIENT = {"clauz3.prover", "clauz3.prover.verify", "clauz3.prover.entailment", "clauz3.prover.cache",
                 "clauz3.prover.pipeline", "clauz3.prover.entry", "clauz3.prover.errors"}
# The one source-only reader of trusted layers (issue 23) is stdlib `ast` and hashing, not the compiler:
# the Libraries view reads stubs through it. Anything else under clauz3.language stays off the path.
LANGUAGE_SOURCE_READER = {"clauz3.language", "clauz3.language.errors", "clauz3.language.trusted_source"}

ENTRIES = {
    # `clauz3 ui` itself: the CLI, the ui command and what its run() imports before spawning the service
    "launcher": ("clauz3.cli", "clauz3.commands.ui", "clauz3.sessions.launch.launcher", "clauz3.sessions.agent.providers",
                 "clauz3.sessions.conversation.tutorials", "clauz3.sessions.conversation.workspaces", "clauz3.prover.pipeline"),
    # the service with its whole ACP client side: it speaks JSON-RPC itself and never imports the SDK
    "service": ("clauz3.sessions.web.service", "clauz3.sessions.agent.acp_client", "clauz3.sessions.agent.jsonrpc",
                "clauz3.sessions.conversation.conversation"),
    "supervisor": ("clauz3.sessions.agent.supervisor",),
    "demo": ("clauz3.agents.demo.__main__",),
}
OFF_PATH_SDK = {"service": "acp", "demo": "mcp", "supervisor": "acp", "launcher": "acp"}


def loaded_by(modules: tuple[str, ...]) -> set[str]:
    script = ("import importlib, json, sys\n"
              f"for name in {list(modules)!r}: importlib.import_module(name)\n"
              "print(json.dumps(sorted(sys.modules)))\n")
    done = subprocess.run([sys.executable, "-I", "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stdout))


def heavy_in(loaded: set[str]) -> list[str]:
    def heavy(name: str) -> bool:
        if name in LANGUAGE_SOURCE_READER:
            return False
        if any(name == h or name.startswith(h + ".") for h in HEAVY):
            return True
        return name.startswith("clauz3.prover.") and name not in PROVER_CLIENT
    return sorted(m for m in loaded if heavy(m))


@pytest.mark.parametrize("process", list(ENTRIES))
def test_first_page_process_imports_nothing_heavy(process: str) -> None:
    loaded = loaded_by(ENTRIES[process])
    assert all(name in loaded for name in ENTRIES[process])  # the check ran on the real entry
    assert heavy_in(loaded) == []
    sdk = OFF_PATH_SDK[process]
    assert not any(m == sdk or m.startswith(sdk + ".") for m in loaded), f"{process} imports {sdk} at start"


def test_the_check_sees_a_heavy_import() -> None:
    """The detector itself: the prover's solver side is reported (so an empty list above means something)."""
    assert {"z3", "clauz3.prover.api"} <= set(heavy_in(loaded_by(("clauz3.prover.api",))))


def test_first_run_email_tutorial_copy_imports_nothing_heavy(tmp_path: Path) -> None:
    """A newcomer's first run copies the email tutorial before the link is printed; it installs no
    library, so the install pipeline (and the language package under it) stays unloaded."""
    data = f"{tmp_path}/data"
    script = ("import json, os, sys\n"
              f"os.makedirs({data!r}, mode=0o700)\n"
              "from pathlib import Path\n"
              "from clauz3.sessions.conversation.tutorials import prepare\n"
              f"copy = prepare(Path({data!r}), 'email')\n"
              "print(json.dumps([str(copy), sorted(sys.modules)]))\n")
    done = subprocess.run([sys.executable, "-I", "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    copy, loaded = json.loads(done.stdout)
    assert (Path(copy) / ".clauz3-tutorial.json").is_file()  # the check ran on a real copy
    assert heavy_in(set(loaded)) == []
    assert "clauz3.layers.apply" not in loaded
