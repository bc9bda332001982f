"""Issue 11 §3: no trust anchor an agent can reach.

The agent's shell sequence of the issue (approval-keygen → mock-approval-service → run with its own
service and key) is run for real, as separate `clauz3` processes without a terminal, beside and
without the person's real `clauz3 approval-service`.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from clauz3.commands.config import ALLOW

PROGRAM = '''
import clauz3
from tools.slow.trusted import contracts as slow
from tools.slow.trusted.effects import mark


@clauz3.guarantee(slow.marks_at_most(1))
def main() -> None:
    mark("effect.txt")
'''


def _allowed(command: str) -> bool:
    """Claude Code's rule semantics for the entries `clauz3 config` writes: `Bash(P:*)` allows P and
    P followed by arguments; a bare tool name allows only that tool (never Bash)."""
    for entry in ALLOW:
        found = re.fullmatch(r"Bash\((.*):\*\)", entry)
        if found and (command == found.group(1) or command.startswith(found.group(1) + " ")):
            return True
        if entry == f"Bash({command})":
            return True
    return False


def test_config_grants_an_agent_only_the_command_that_submits_to_the_persons_authority() -> None:
    assert _allowed("clauz3 run main.py") and _allowed("clauz3 run -")
    for command in ("clauz3 approval-keygen --out /tmp/k", "clauz3 mock-approval-service --config m.json",
                    "clauz3 approval-service --port 0", "clauz3 prove --trusted-root x main.py",
                    "clauz3 test examples/email", "clauz3 install stdlib:filesystem", "clauz3 ui",
                    "uv run clauz3 approval-keygen", "uv run clauz3 run main.py", "clauz3 runx",
                    "python -m clauz3 run main.py"):
        assert not _allowed(command), command
    assert not any(e.startswith("Bash(clauz3:") or e == "Bash" for e in ALLOW)




@pytest.fixture
def project(project: Path) -> Path:  # conftest's project, with the agent's program in it
    (project / "main.py").write_text(PROGRAM, encoding="utf-8")
    return project


def _env(data: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAUZ3_")}
    env.update(CLAUZ3_HOME=str(data), CLAUZ3_PROOF_CACHE="0", **extra)
    return env


def _clauz3(project: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    # stdin is not a terminal: what an agent's shell tool gives a command.
    return subprocess.run([sys.executable, "-m", "clauz3", *args], cwd=project, env=env, capture_output=True,
                          text=True, timeout=120, stdin=subprocess.DEVNULL)


def _serve(project: Path, env: dict[str, str], *args: str) -> tuple[subprocess.Popen[str], dict[str, str]]:
    proc = subprocess.Popen([sys.executable, "-m", "clauz3", *args], cwd=project, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    assert proc.stdout is not None
    banner: dict[str, str] = {}
    while "CLAUZ3_APPROVAL_VERIFY_KEY" not in banner:
        line = proc.stdout.readline()
        if not line:
            raise AssertionError(f"no banner: {proc.stderr.read() if proc.stderr else ''}")
        if "=" in line and not line.startswith("Approver UI"):
            key, value = line.strip().split("=", 1)
            banner[key] = value
    return proc, banner


@pytest.fixture
def stop() -> Iterator[list[subprocess.Popen[str]]]:
    procs: list[subprocess.Popen[str]] = []
    yield procs
    for proc in procs:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()


def _agent_keys(project: Path, env: dict[str, str], tmp: Path) -> Path:
    out = _clauz3(project, env, "approval-keygen", "--out", str(tmp / "agent-keys"))
    assert out.returncode == 0, out.stderr
    return tmp / "agent-keys"


def test_the_agent_shell_sequence_executes_nothing_without_a_real_service(
        project: Path, data: Path, tmp_path: Path, stop: list[subprocess.Popen[str]]) -> None:
    env = _env(data)
    keys = _agent_keys(project, env, tmp_path)
    config = tmp_path / "mock.json"
    config.write_text(json.dumps({"decision": "approved_once"}))
    mock, banner = _serve(project, env, "mock-approval-service", "--config", str(config), "--port", "0",
                          "--signing-key-file", str(keys / "signing.key"))
    stop.append(mock)
    token = tmp_path / "token"
    token.write_text(banner["CLAUZ3_APPROVAL_TOKEN"])
    token.chmod(0o600)
    out = _clauz3(project, env, "run", "--approval-service", banner["CLAUZ3_APPROVAL_SERVICE"],
                  "--token-file", str(token), "--verify-key-file", str(keys / "verify.key"),
                  "--trusted-root", "tools/slow/trusted", "main.py")
    assert out.returncode == 2, (out.stdout, out.stderr)
    assert "refusing to run" in out.stderr and "confirm at a terminal" in out.stderr
    assert "executed:" not in out.stdout and "approval:" not in out.stdout
    assert not (project / "effect.txt").exists()
    # The same inputs through the environment are no better.
    out = _clauz3(project, _env(data, CLAUZ3_APPROVAL_SERVICE=banner["CLAUZ3_APPROVAL_SERVICE"],
                                CLAUZ3_APPROVAL_TOKEN=banner["CLAUZ3_APPROVAL_TOKEN"],
                                CLAUZ3_APPROVAL_VERIFY_KEY=(keys / "verify.key").read_text().strip()),
                  "run", "--trusted-root", "tools/slow/trusted", "main.py")
    assert out.returncode == 2 and "refusing to run" in out.stderr, (out.stdout, out.stderr)
    assert not (project / "effect.txt").exists()


def test_beside_the_persons_service_the_mock_refuses_and_the_agents_key_and_url_are_refused(
        project: Path, data: Path, tmp_path: Path, stop: list[subprocess.Popen[str]]) -> None:
    env = _env(data)
    real, real_banner = _serve(project, env, "approval-service", "--port", "0", "--project", str(project),
                               "--trusted-root", str(project / "tools" / "slow" / "trusted"),
                               "--import-root", str(project))
    stop.append(real)
    keys = _agent_keys(project, env, tmp_path)
    config = tmp_path / "mock.json"
    config.write_text(json.dumps({"decision": "approved_once"}))
    refused = _clauz3(project, env, "mock-approval-service", "--config", str(config), "--port", "0")
    assert refused.returncode == 2 and "refusing to serve a mock" in refused.stderr, refused.stderr
    inherited = _clauz3(project, _env(data, CLAUZ3_APPROVAL_SERVICE=real_banner["CLAUZ3_APPROVAL_SERVICE"]),
                        "mock-approval-service", "--config", str(config), "--port", "0")
    assert inherited.returncode == 2 and "CLAUZ3_APPROVAL_SERVICE is set" in inherited.stderr
    # A mock started elsewhere (another folder, another data dir) with the agent's key, then named by flags.
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    other_home = tmp_path / "other-home"
    other_home.mkdir(mode=0o700)
    mock, banner = _serve(elsewhere, _env(other_home), "mock-approval-service", "--config", str(config),
                          "--port", "0", "--signing-key-file", str(keys / "signing.key"))
    stop.append(mock)
    token = tmp_path / "token"
    token.write_text(banner["CLAUZ3_APPROVAL_TOKEN"])
    token.chmod(0o600)
    # A library the agent wrote elsewhere: the worker would import it as trusted code before any card.
    evil = tmp_path / "evil"
    shutil.copytree(project / "tools", evil / "tools")
    for flags in (["--approval-service", banner["CLAUZ3_APPROVAL_SERVICE"]],
                  ["--verify-key-file", str(keys / "verify.key")],
                  ["--trusted-root", str(evil / "tools" / "slow" / "trusted"), "--import-root", str(evil)]):
        out = _clauz3(project, env, "run", "--token-file", str(token), *flags, "main.py")
        assert out.returncode == 2 and "refusing to run" in out.stderr, (flags, out.stdout, out.stderr)
        assert "executed:" not in out.stdout
    assert not (project / "effect.txt").exists()
    # With no trust flag at all, the run goes to the person's service: pending until a person decides.
    started = time.monotonic()
    out = _clauz3(project, _env(data, CLAUZ3_APPROVAL_TOKEN=real_banner["CLAUZ3_APPROVAL_TOKEN"]), "run",
                  "--approval-timeout", "1", "main.py")
    assert time.monotonic() - started < 100
    assert "executed:" not in out.stdout and out.returncode == 2, (out.stdout, out.stderr)
    assert out.stdout.startswith("main: proved") and "expired" in out.stderr, (out.stdout, out.stderr)
    assert not (project / "effect.txt").exists()


def test_a_stale_or_reused_pid_record_is_no_anchor(project: Path, data: Path) -> None:
    from clauz3.approvals.anchor import AUTHORITY, MOCK, AnchorRecord, anchor_path, read_anchor, write_anchor

    def record(kind: str, pid: int) -> AnchorRecord:
        return AnchorRecord(kind, "http://127.0.0.1:9", "k", os.path.realpath(project), (), (), pid)

    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    write_anchor(data, record(AUTHORITY, dead.pid))
    assert read_anchor(data, project) is None  # the service is gone
    write_anchor(data, record(AUTHORITY, os.getpid()))
    assert read_anchor(data, project) is None  # a live pid, but not an approval service: a reused pid
    write_anchor(data, record(MOCK, os.getpid()))
    assert read_anchor(data, project) is not None  # the in-process test form names its own process
    anchor_path(data, project).chmod(0o644)
    assert read_anchor(data, project) is None  # a record others could have written is no anchor
