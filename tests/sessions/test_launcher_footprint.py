"""tree_rss (issue 13): the `clauz3 ui` launcher only spawns the service, prints the link and waits, so it
must not load the approval authority, cryptography or YAML (together ~10 MiB resident in a process that
lives as long as the workspace). Imported in a fresh ``python -I`` as the launcher imports them."""

from __future__ import annotations

import json
import subprocess
import sys

LAUNCHER = ("clauz3.cli", "clauz3.commands.ui", "clauz3.sessions.launch.config", "clauz3.sessions.launch.launcher",
            "clauz3.sessions.agent.providers", "clauz3.sessions.conversation.tutorials", "clauz3.sessions.conversation.workspaces",
            "clauz3.approvals.tokens")
NOT_IN_LAUNCHER = ("cryptography", "yaml", "clauz3.approvals.authority", "clauz3.approvals.keys", "starlette",
                   "uvicorn")


def test_launcher_loads_no_authority_cryptography_or_yaml() -> None:
    script = ("import importlib, json, sys\n"
              f"for name in {list(LAUNCHER)!r}: importlib.import_module(name)\n"
              "from clauz3.approvals.tokens import generate_token\n"
              "print(json.dumps({'modules': sorted(sys.modules), 'token': generate_token()}))\n")
    done = subprocess.run([sys.executable, "-I", "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    loaded = set(out["modules"])
    assert all(name in loaded for name in LAUNCHER)  # the check ran on the real modules
    heavy = sorted(m for m in loaded if any(m == h or m.startswith(h + ".") for h in NOT_IN_LAUNCHER))
    assert heavy == []
    # the token the launcher prints in its link keeps its format (43 base64url characters, CRED-2)
    token = out["token"]
    assert len(token) == 43 and token.replace("-", "").replace("_", "").isalnum()
