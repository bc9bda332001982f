"""`clauz3 ui` as a real process: LAUNCH-1..8, AUTH-1/3, DEC-8 (`clauz3 link`), lease refusal."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

LINK = "Open this private link: "


def env_for(tmp: Path) -> dict[str, str]:
    (tmp / "tmpdir").mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAUZ3_")}
    env.update(CLAUZ3_HOME=str(tmp / "data"), TMPDIR=str(tmp / "tmpdir"))
    return env


def start(tmp: Path, *args: str, cwd: Path | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "clauz3", "ui", *args], cwd=cwd or tmp, env=env_for(tmp),
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def first_link(proc: subprocess.Popen[str]) -> str:
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line.startswith(LINK), (line, proc.stderr.read() if proc.poll() is not None else "")
    assert proc.stdout.readline() == "clauz3 workspace is running. Press Ctrl-C to stop.\n"
    return line[len(LINK):].strip()


@pytest.fixture
def ui(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], str]]:
    proc = start(tmp_path, "demo", "--tutorial", "--no-browser")
    try:
        yield proc, first_link(proc)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_tutorial_link_signs_in_once_and_ctrl_c_cleans_up(ui: tuple[subprocess.Popen[str], str], tmp_path: Path) -> None:
    proc, url = ui
    assert url.startswith("http://127.0.0.1:") and "/ui/login?key=" in url
    base = url.split("/ui/login")[0]
    with httpx.Client(timeout=90.0, trust_env=False, follow_redirects=False) as client:
        response = client.get(url)
        # issue 19: the answer hands the page its secret and the page replaces the address with /ui
        assert response.status_code == 200 and "location.replace('/ui')" in response.text
        page = client.get(base + "/ui")
        assert page.status_code == 200
        assert "script-src 'self'" in page.headers["content-security-policy"]
        assert "<script type=\"module\" src=\"/ui/assets/app.js\">" in page.text
        again = httpx.get(url, timeout=90.0, follow_redirects=False, trust_env=False)
        assert again.status_code == 401
    assert (tmp_path / "data" / "tutorials" / "email" / "tools" / "email" / "trusted" / "effects.py").is_file()
    assert not list((tmp_path / "tmpdir").iterdir()) == []  # <tmp> exists while running
    proc.send_signal(signal.SIGINT)
    assert proc.wait(90) == 130
    assert list((tmp_path / "tmpdir").iterdir()) == []


def test_sigterm_exits_143_and_frees_the_lease(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    proc = start(tmp_path, "demo", "--no-browser", cwd=project)
    first_link(proc)
    second = start(tmp_path, "demo", "--no-browser", cwd=project)
    assert second.wait(90) == 5
    assert "already open in clauz3 ui at http://127.0.0.1:" in second.stderr.read()
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(90) == 143
    third = start(tmp_path, "demo", "--no-browser", cwd=project)
    first_link(third)
    third.send_signal(signal.SIGINT)
    assert third.wait(90) == 130


def test_link_command_prints_a_fresh_link(ui: tuple[subprocess.Popen[str], str], tmp_path: Path) -> None:
    _proc, url = ui
    cwd = tmp_path / "data" / "tutorials" / "email"
    out = subprocess.run([sys.executable, "-m", "clauz3", "link"], cwd=cwd, env=env_for(tmp_path),
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    fresh = out.stdout.strip().removeprefix(LINK)
    assert fresh != url and "/ui/login?key=" in fresh
    assert httpx.get(url, timeout=90.0, follow_redirects=False, trust_env=False).status_code == 401  # a new one kills the old
    assert httpx.get(fresh, timeout=90.0, follow_redirects=False, trust_env=False).status_code == 200
    none = subprocess.run([sys.executable, "-m", "clauz3", "link"], cwd=tmp_path, env=env_for(tmp_path),
                          capture_output=True, text=True, timeout=120)
    assert none.returncode == 2
    assert none.stderr.strip() == "error: no clauz3 service is running for this project"


@pytest.mark.parametrize("port", ["abc", "70000"])
def test_bad_port_exits_2(tmp_path: Path, port: str) -> None:
    proc = start(tmp_path, "demo", "--no-browser", "--port", port)
    assert proc.wait(90) == 2
    assert proc.stderr.read().startswith("error: ")
    assert list((tmp_path / "tmpdir").iterdir()) == []


def test_occupied_port_exits_2(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        proc = start(tmp_path, "demo", "--no-browser", "--port", str(port))
        assert proc.wait(90) == 2
        assert proc.stderr.read().strip() == f"error: port {port} is already in use on 127.0.0.1"
    assert list((tmp_path / "tmpdir").iterdir()) == []


@pytest.mark.parametrize("args", [["--tutorial", "--unrestricted", "demo"], ["demo", "--tutorial", "--prompt", "x"],
                                  ["--unrestricted"], ["demo", "--tutorial", "nope"]])
def test_refused_flag_combinations(tmp_path: Path, args: list[str]) -> None:
    proc = start(tmp_path, *args)
    assert proc.wait(90) == 2
    assert not (tmp_path / "data").exists() or not (tmp_path / "data" / "conversations.sqlite").exists()


def test_kill_9_of_launcher_ends_service(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    proc = start(tmp_path, "demo", "--no-browser", cwd=project)
    url = first_link(proc)
    base = url.split("/ui/login")[0]
    proc.kill()
    proc.wait()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            httpx.get(base + "/health", trust_env=False, timeout=0.5)
        except httpx.HTTPError:
            break
        time.sleep(0.2)
    else:
        pytest.fail("the service outlived its launcher")
    again = start(tmp_path, "demo", "--no-browser", cwd=project)
    first_link(again)
    again.send_signal(signal.SIGINT)
    assert again.wait(90) == 130
