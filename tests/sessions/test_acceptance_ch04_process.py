"""04 SUP-1 acceptance: the host never imports or calls the SDK's ``spawn_agent_process``, and the adapter runs
as a child of the agent supervisor, in the supervisor's own process group (not the service's)."""

from __future__ import annotations

import ast
import os
import sys
from pathlib import Path

import acp
import pytest
from sessions_harness import recv, recv_until, running_service, state_is

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for proc_tree
from proc_tree import cmdline

SRC = Path(__file__).resolve().parents[2] / "src" / "clauz3"
FORBIDDEN = "spawn_agent_process"


def uses(path: Path | str, source: str | None = None) -> list[str]:
    """Every import, name, attribute or string-built lookup of the forbidden function in one module."""
    tree = ast.parse(source if source is not None else Path(path).read_bytes(), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and any(a.name == FORBIDDEN for a in node.names):
            found.append(f"{path}:{node.lineno} import")
        elif isinstance(node, ast.Name) and node.id == FORBIDDEN:
            found.append(f"{path}:{node.lineno} name")
        elif isinstance(node, ast.Attribute) and node.attr == FORBIDDEN:
            found.append(f"{path}:{node.lineno} attribute")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr" and any(
                isinstance(a, ast.Constant) and a.value == FORBIDDEN for a in node.args):
            found.append(f"{path}:{node.lineno} getattr")
    return found


def test_no_module_of_the_host_uses_spawn_agent_process() -> None:
    files = sorted(SRC.rglob("*.py"))
    assert len(files) > 50 and any(p.name == "acp_client.py" for p in files)
    assert uses(SRC / "sessions" / "agent" / "acp_client.py") == []
    offenders = [hit for path in files for hit in uses(path)]
    assert offenders == []
    # the checker itself finds each spelling of a use
    for snippet in (f"from acp import {FORBIDDEN}", f"import acp\nacp.{FORBIDDEN}()",
                    f"from acp.stdio import {FORBIDDEN} as s", f"getattr(acp, {FORBIDDEN!r})"):
        assert uses("<probe>", snippet), snippet


def _stat(pid: int) -> tuple[int, int, int]:
    """(ppid, pgid, sid) of a live process."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[1]), int(fields[2]), int(fields[3])


def _by_module(module: str) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        argv = cmdline(int(entry)) if entry.isdigit() else []
        if "-m" in argv and argv.index("-m") + 1 < len(argv) and argv[argv.index("-m") + 1] == module:
            out.append(int(entry))
    return out


async def test_adapter_is_a_child_of_the_supervisor_in_its_own_group(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the host called spawn_agent_process")

    monkeypatch.setattr(acp, FORBIDDEN, refuse)
    async with running_service(tmp_path) as svc:
        await svc.login()
        ws = await svc.ws()
        await recv(ws)
        await recv_until(ws, state_is(agent_status="ready"), timeout=60)
        me = os.getpid()
        supervisors = [p for p in _by_module("clauz3.sessions.agent.supervisor") if _stat(p)[0] == me]
        assert len(supervisors) == 1, supervisors
        [sup] = supervisors
        demos = [p for p in _by_module("clauz3.agents.demo") if _stat(p)[0] == sup]
        assert len(demos) == 1, "the demo agent is not the supervisor's child"
        [demo] = demos
        _, sup_pgid, sup_sid = _stat(sup)
        _, demo_pgid, _ = _stat(demo)
        assert sup_pgid == sup == sup_sid  # the supervisor leads a new session and group
        assert demo_pgid == sup  # the adapter is in the supervisor's group …
        assert os.getpgid(0) != sup  # … which is not the service's
        await ws.close()
