"""A store written by a newer clauz3, met from the command line: one line with a code, file untouched."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

FIXTURES = Path(__file__).parent / "fixtures"


def newer(data: Path, name: str, step: str) -> bytes:
    data.mkdir(mode=0o700, exist_ok=True)
    shutil.copyfile(FIXTURES / name, data / name)
    (data / name).chmod(0o600)
    conn = sqlite3.connect(data / name)
    conn.execute("INSERT INTO _migrations (name) VALUES (?)", (step,))
    conn.commit()
    conn.close()
    return (data / name).read_bytes()


def clauz3(data: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAUZ3_")}
    env["CLAUZ3_HOME"] = str(data)
    return subprocess.run([sys.executable, "-m", "clauz3", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=120)


def test_resume_list_refuses_a_newer_conversation_store(tmp_path: Path) -> None:
    data = tmp_path / "data"
    before = newer(data, "conversations.sqlite", "999_from_a_newer_clauz3")
    done = clauz3(data, tmp_path, "resume", "--list")
    assert done.returncode == 2, done
    assert done.stdout == ""
    assert done.stderr == "error: conversations.sqlite was written by a newer clauz3; upgrade clauz3\n"
    assert (data / "conversations.sqlite").read_bytes() == before


def test_the_same_file_from_this_version_lists_its_conversation(tmp_path: Path) -> None:
    """The control: without the unknown step the old file lists its one conversation (so the refusal above
    is about the version, not the file)."""
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    shutil.copyfile(FIXTURES / "conversations.sqlite", data / "conversations.sqlite")
    (data / "conversations.sqlite").chmod(0o600)
    project = tmp_path / "project"
    project.mkdir()
    conn = sqlite3.connect(data / "conversations.sqlite")
    conn.execute("UPDATE conversations SET project = ?", (os.path.realpath(project),))
    conn.commit()
    conn.close()
    done = clauz3(data, project, "resume", "--list")
    assert done.returncode == 0, done
    assert done.stdout.startswith("11111111-1111-4111-8111-111111111111  demo  "), done.stdout
