"""Shared fixtures: a project with the email library, a data dir, the mock authority, a fake host, and
an MCP client session on a real ``python -P -m clauz3.bridge`` subprocess."""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from clauz3.approvals.mock import MockApprovalService

from .fakehost import FakeHost

REPO = Path(__file__).resolve().parents[2]
EMAIL_TOOLS = REPO / "examples" / "email" / "tools" / "email"
EMAIL_PROGRAM = (REPO / "examples" / "email" / "main.py").read_text(encoding="utf-8")
SIX = ["run", "status", "tools", "libraries", "list_skills", "read_skill"]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    proj = tmp_path / "proj"
    shutil.copytree(EMAIL_TOOLS, proj / "tools" / "email", ignore=shutil.ignore_patterns("__pycache__"))
    return Path(os.path.realpath(proj))


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "data"
    home.mkdir(mode=0o700)
    monkeypatch.setenv("CLAUZ3_HOME", str(home))
    # The proof cache on, as users run (issue 23), in this test's own folder.
    monkeypatch.setenv("CLAUZ3_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("CLAUZ3_PROOF_CACHE", raising=False)
    return home


def credentials(svc: Any, tmp: Path, **extra: Any) -> dict[str, Any]:
    doc = {"service_url": svc.url, "submission_token": svc.token, "verify_key": svc.verify_key.text,
           "workspace_generation": None, "conversation_id": "conv-bridge-test",
           "status_file": str(tmp / "runs-status.json"), "proof_timeout_seconds": 60, "require_sandbox": False}
    doc.update(extra)
    return doc


@pytest.fixture
def svc(data: Path, project: Path) -> Iterator[MockApprovalService]:
    with MockApprovalService(data, project) as service:
        yield service


@pytest.fixture
def host(svc: MockApprovalService, tmp_path: Path) -> Iterator[FakeHost]:
    with FakeHost(credentials(svc, tmp_path)) as fake:
        yield fake


def bridge_args(project: Path, *, libraries: bool = True, extra: list[str] | None = None) -> list[str]:
    args = ["-P", "-m", "clauz3.bridge", "--project", str(project)]
    if libraries:
        args += ["--trusted-root", str(project / "tools" / "email" / "trusted")]
    args += ["--import-root", str(project / ".clauz3"), "--import-root", str(project)]
    return args + (extra or [])


def bridge_env(host: FakeHost, ticket: str | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAUZ3_") or k in ("CLAUZ3_HOME",
                                                                                          "CLAUZ3_CACHE")}
    env.update(host.env(ticket))
    return env


@contextlib.asynccontextmanager
async def bridge_session(project: Path, host: FakeHost, *, libraries: bool = True,
                         extra: list[str] | None = None) -> AsyncIterator[ClientSession]:
    params = StdioServerParameters(command=sys.executable, args=bridge_args(project, libraries=libraries,
                                                                            extra=extra),
                                   env=bridge_env(host), cwd=str(project))
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session


def text_of(result: Any) -> str:
    return "\n".join(block.text for block in result.content if getattr(block, "type", None) == "text")
