"""tree_rss (06 §3, DEC-6): once the link is printed, `clauz3 ui` waits as ``python -I -S waiting.py`` (execv,
same pid), which loads only the standard library, and still ends the service group and removes <tmp>."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from clauz3.sessions.launch import waiting

LINK = "Open this private link: "


def _env(tmp: Path) -> dict[str, str]:
    (tmp / "tmpdir").mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAUZ3_")}
    env.update(CLAUZ3_HOME=str(tmp / "data"), TMPDIR=str(tmp / "tmpdir"))
    return env


def _cmdline(pid: int) -> list[str]:
    with open(f"/proc/{pid}/cmdline", "rb") as fh:
        return [part.decode() for part in fh.read().split(b"\0") if part]


def _children(pid: int) -> list[int]:
    out: list[int] = []
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children") as fh:
            out += [int(p) for p in fh.read().split()]
    return out


def test_the_waiting_form_imports_only_the_standard_library() -> None:
    probe = ("import sys\n"
             f"path = {waiting.__file__!r}\n"
             "exec(compile(open(path).read(), path, 'exec'), {'__name__': 'probe'})\n"
             "print('\\n'.join(f'{n} {getattr(m, \"__file__\", None) or \"\"}' for n, m in sorted(sys.modules.items())))\n")
    done = subprocess.run([sys.executable, "-I", "-S", "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    rows = [line.split(" ", 1) for line in done.stdout.splitlines()]
    names = {name for name, _ in rows}
    assert {"selectors", "socket", "json", "shutil"} <= names  # the probe really loaded the module
    assert not any(name.startswith("clauz3") for name in names)
    assert [f for _, f in rows if "site-packages" in f] == []


def test_ui_waits_as_waiting_py_and_sigterm_ends_the_service_and_tmp(tmp_path: Path) -> None:
    env = _env(tmp_path)
    proc = subprocess.Popen([sys.executable, "-m", "clauz3", "ui", "demo", "--tutorial", "--no-browser"],
                            cwd=tmp_path, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        link = proc.stdout.readline()
        assert link.startswith(LINK)
        token = link.strip().split("key=", 1)[1]
        deadline = time.monotonic() + 90
        while "-S" not in _cmdline(proc.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        argv = _cmdline(proc.pid)
        assert argv[1:3] == ["-I", "-S"] and argv[3] == os.path.abspath(waiting.__file__), argv
        assert len(token) == 43 and not any(token in arg for arg in argv)  # no secret in a readable cmdline
        services = [p for p in _children(proc.pid) if "clauz3.sessions.web.service" in _cmdline(p)]
        assert len(services) == 1  # the service is still the (same-pid) launcher's child
        tmp_dirs = list((tmp_path / "tmpdir").glob("clauz3-ui-*"))
        assert len(tmp_dirs) == 1 and tmp_dirs[0].is_dir()
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(90) == 143
        assert not os.path.exists(f"/proc/{services[0]}") or _zombie(services[0])
        assert list((tmp_path / "tmpdir").glob("clauz3-ui-*")) == []
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(90)


def _zombie(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True
