"""Typed state in sessions/ (issue 15): the agent status is an enum, the page's state object is built
at the web edge, and the host offers every member of the Protocols a conversation and a switch use."""

from __future__ import annotations

import ast
import inspect
import textwrap
from pathlib import Path

from clauz3.sessions.conversation import host_links, library_command, workspaces
from clauz3.sessions.conversation.agent_status import AgentStatus
from clauz3.sessions.conversation.conversation import ConversationRuntime
from clauz3.sessions.conversation.host import Host

SESSIONS = Path(__file__).resolve().parents[2] / "src" / "clauz3" / "sessions"


def status_string_assignments(text: str) -> list[int]:
    """Lines that assign or compare ``.status`` with a bare string (the enum's job)."""
    lines = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Attribute) and t.attr == "status" for t in node.targets) \
                and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            lines.append(node.lineno)
    return lines


def test_the_agent_status_is_never_a_bare_string() -> None:
    found = {p.name: n for p in SESSIONS.rglob("*.py") if (n := status_string_assignments(p.read_text(encoding="utf-8")))}
    assert found == {}
    assert status_string_assignments('conv.status = "busy"\n') == [1]  # the scan sees a planted one
    assert {s.value for s in AgentStatus} == {"starting", "ready", "busy", "cancelling", "stopped", "unavailable"}


def test_the_conversation_builds_no_page_json() -> None:
    assert not hasattr(ConversationRuntime, "state") and not hasattr(ConversationRuntime, "activity")


def _members(protocol: type) -> set[str]:
    names = set(getattr(protocol, "__annotations__", {}))
    names |= {n for n, v in vars(protocol).items() if not n.startswith("_") and (callable(v) or isinstance(v, property))}
    return names


def _host_members() -> set[str]:
    names = {n for n in dir(Host) if not n.startswith("_")}
    init = ast.parse(textwrap.dedent(inspect.getsource(Host.__init__)))
    names |= {t.attr for n in ast.walk(init) if isinstance(n, ast.Assign | ast.AnnAssign)
              for t in (n.targets if isinstance(n, ast.Assign) else [n.target])
              if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self"}
    return names


def test_the_host_offers_every_member_of_the_protocols_it_is_passed_as() -> None:
    host = _host_members()
    for protocol in (host_links.HostLinks, workspaces.WorkspaceHost, library_command.LibrariesHost):
        assert getattr(protocol, "_is_protocol", False), protocol.__name__
        wanted = _members(protocol)
        assert wanted and wanted - host == set(), protocol.__name__
