"""Shared fixtures: a project holding the email and slow test libraries, a data dir, run configs."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from clauz3.runs.supervisor import RunConfig

REPO = Path(__file__).resolve().parents[2]
EMAIL_TOOLS = REPO / "examples" / "email" / "tools" / "email"
SLOW_TOOLS = Path(__file__).resolve().parent / "fixtures" / "slowlib" / "tools" / "slow"

EMAIL_PROGRAM = '''
import clauz3
from tools.email.trusted import contracts as emails
from tools.email.trusted.effects import send_email


@clauz3.guarantee(emails.only(["bob@example.com"]))
@clauz3.guarantee(emails.at_most(1))
@clauz3.guarantee(emails.unique_recipients())
def main() -> None:
    send_email("bob@example.com", "Hi from clauz3")
'''

SLOW_HEADER = '''
import clauz3
from tools.slow.trusted import contracts as slow
from tools.slow.trusted.effects import env_names, flood, mark, pause, read_text


@clauz3.guarantee(slow.pauses_at_most(1))
def main() -> None:
'''


def slow_program(*body: str) -> str:
    return SLOW_HEADER + "".join(f"    {line}\n" for line in body)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    proj = tmp_path / "proj"
    shutil.copytree(EMAIL_TOOLS, proj / "tools" / "email", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(SLOW_TOOLS, proj / "tools" / "slow", ignore=shutil.ignore_patterns("__pycache__"))
    return proj


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "data"
    home.mkdir(mode=0o700)
    monkeypatch.setenv("CLAUZ3_HOME", str(home))
    # The proof cache on, as users run (issue 23), in this test's own folder.
    monkeypatch.setenv("CLAUZ3_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("CLAUZ3_PROOF_CACHE", raising=False)
    return home


def make_config(project: Path, data: Path, svc: Any, source: str, **kw: Any) -> RunConfig:
    base: dict[str, Any] = dict(
        source=source, project=project,
        trusted_roots=[str(project / "tools" / "email" / "trusted"), str(project / "tools" / "slow" / "trusted")],
        import_roots=[str(project)], service_url=svc.url if svc else "http://127.0.0.1:9",
        submission_token=svc.token if svc else "x" * 43, verify_key=svc.verify_key.text if svc else None,
        data_dir=data,
    )
    base.update(kw)
    return RunConfig(**base)
