"""The page's commands are validated once, at the socket, into typed requests (issue 15)."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from clauz3.sessions.conversation.ws_requests import (
    Attach,
    BadRequest,
    Cancel,
    Libraries,
    New,
    Prompt,
    Rename,
    Select,
    Workspace,
    parse_request,
)

CID = "0b6a2a52-6c1e-4d55-9a35-2a3c1f0e9b7d"
SESSIONS = Path(__file__).resolve().parents[2] / "src" / "clauz3" / "sessions"


@pytest.mark.parametrize(("method", "params", "expected"), [
    ("session/prompt", {"conversation_id": CID, "prompt": "hi"}, Prompt(CID, "hi")),
    ("session/cancel", {}, Cancel()),
    ("clauz3/new", {}, New(None, None)),
    ("clauz3/new", {"agent": "demo", "domains": ["email"]}, New("demo", ["email"])),
    ("clauz3/select", {"id": CID}, Select(CID)),
    ("clauz3/rename", {"id": CID, "title": "  Plans  "}, Rename(CID, "Plans")),
    ("clauz3/rename", {"id": CID, "title": "a\nb"}, Rename(CID, None)),
    ("clauz3/rename", {"id": CID, "title": "x" * 121}, Rename(CID, None)),
    ("clauz3/attach", {"conversation_id": 7, "attachments": []}, Attach(None, [])),
    ("clauz3/libraries", {"conversation_id": CID, "domains": ["email"], "confirm": 1},
     Libraries(CID, ["email"], False)),  # only a literal true confirms
])
def test_commands_become_typed_requests(method: str, params: dict[str, Any], expected: object) -> None:
    assert parse_request(method, params) == expected


def test_workspace_flags_count_only_when_literally_true_and_the_request_is_echoed() -> None:
    params = {"tutorial": "email", "reset": True, "confirm_reset": "yes", "stop": 1}
    request = parse_request("clauz3/workspace", params)
    assert isinstance(request, Workspace)
    assert (request.has_tutorial, request.tutorial, request.reset, request.confirm_reset, request.stop) == (
        True, "email", True, False, False)
    assert request.echo == params and request.echo is not params


@pytest.mark.parametrize(("method", "params", "code"), [
    ("session/prompt", {"conversation_id": CID, "prompt": 3}, "bad_frame"),
    ("session/prompt", {"prompt": "hi"}, "bad_frame"),
    ("clauz3/new", {"agent": None}, "bad_frame"),
    ("clauz3/new", {"domains": ["a", 1]}, "bad_frame"),
    ("clauz3/select", {"id": "not-a-uuid"}, "not_found"),
    ("clauz3/rename", {"title": "x"}, "not_found"),
    ("clauz3/attach", {"conversation_id": CID, "attachments": "a"}, "bad_frame"),
    ("clauz3/libraries", {"conversation_id": CID}, "bad_frame"),
])
def test_malformed_commands_carry_their_notice_code(method: str, params: dict[str, Any], code: str) -> None:
    with pytest.raises(BadRequest) as raised:
        parse_request(method, params)
    assert raised.value.code == code


def test_an_unknown_method_is_none() -> None:
    assert parse_request("clauz3/nope", {}) is None


def test_the_handlers_never_read_raw_params() -> None:
    """Only ws_requests reads a command's params; the handlers take the typed request."""
    readers = {}
    for path in sorted(SESSIONS.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        reads = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                 and n.func.attr == "get" and isinstance(n.func.value, ast.Name) and n.func.value.id == "params"]
        if reads:
            readers[path.name] = len(reads)
    assert "ws_requests.py" in readers  # the scan sees the one reader
    assert {k for k in readers if k in ("host.py", "libraries.py", "library_command.py", "workspaces.py")} == set()
