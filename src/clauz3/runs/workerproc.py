"""The run worker as a process (03 RUN-4, LIFE-2, LIFE-4): its environment, its start, its end.

The supervisor decides what a run means; this module only handles the child: the allow-listed
environment (issue 11 §4), the configuration it reads on stdin (CRED-5), starting it (the warm
spawner, else a cold ``python -I -m clauz3.runs.worker`` in its own session), and afterwards
killing its process group, draining what it left in its pipes and writing the soundness report
the sandboxed worker could not write itself (SBX-3).
"""

from __future__ import annotations

import json
import os
import selectors
import signal
import subprocess
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from clauz3.runs.output import OutputCapture
from clauz3.storage.childenv import python_module_argv

REAP_GRACE = 2.0
DRAIN_SECONDS = 1.0

# Optional worker spawner (the bridge's warm prover, 01 WARM-1): given the worker's environment, cwd and the
# descriptors it must inherit, returns a Popen-like object (pid, stdin, stdout, stderr, wait, returncode) for
# a worker in its own session, or None to fall back to a cold ``Popen``.
Spawner = Callable[[dict[str, str], str, list[int]], Any]


def worker_environment(scratch: Path, base: dict[str, str] | None = None,
                       data_dir: Path | None = None) -> dict[str, str]:
    """The worker's allow-listed environment (issue 11 §4): nothing of ours or the caller's but the
    locale, identity and path, plus the scratch ``TMPDIR`` and the data and cache dirs chosen here."""
    from clauz3.storage.childenv import clean_environment
    from clauz3.storage.paths import cache_dir

    overrides = {"TMPDIR": str(scratch), "CLAUZ3_CACHE": str(cache_dir())}
    source = os.environ if base is None else base
    if (source.get("CLAUZ3_SANDBOX") or "").strip().lower() == "off":
        overrides["CLAUZ3_SANDBOX"] = "off"  # SBX: the person's choice, shown on the card as "unavailable"
    if data_dir is not None:
        overrides["CLAUZ3_HOME"] = str(data_dir)
    env = clean_environment(base, effects=True, overrides=overrides)
    for name in list(env):
        if _is_secret_setting(name, env[name]):
            del env[name]  # handed over by worker_secrets instead
    return env


PROXY_NAMES = ("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy")


def _is_secret_setting(name: str, value: str) -> bool:
    """An effect setting that is a credential: the search API key, a proxy URL with a user name and password."""
    return name == "CLAUZ3_SEARCH_API_KEY" or (name in PROXY_NAMES and "@" in value)


def worker_secrets(data_dir: Path, base: dict[str, str] | None = None) -> dict[str, str]:
    """Variables the worker needs but must not get in its environment block (issue 19 §3: any
    same-user process reads it at /proc/<pid>/environ): stdlib:smtp's password variable, named by the
    person's settings, the search API key and a proxy URL holding a password. They travel in the stdin
    configuration; the worker sets them in ``os.environ`` only (where the effects read them), and
    smtpsend.preload removes the password again before any program runs."""
    from clauz3.stdlib.smtpconfig import password_variable

    source = os.environ if base is None else base
    found = {k: v for k, v in source.items() if _is_secret_setting(k, v)}
    name = password_variable(data_dir)
    if name is not None and source.get(name):
        found[name] = source[name]
    return found


def start_worker(env: dict[str, str], cwd: Path, child_fds: list[int], spawner: Spawner | None
                 ) -> subprocess.Popen[bytes]:
    """The warm spawner's worker if it gives one, else a cold worker in its own session (OSError if neither)."""
    if spawner is not None:
        proc: subprocess.Popen[bytes] | None
        try:
            proc = spawner(env, str(cwd), list(child_fds))  # Popen-like by the Spawner contract
        except Exception:  # the warm path is an optimisation: any failure means a cold worker
            proc = None
        if proc is not None:
            return proc
    return subprocess.Popen(
        python_module_argv("clauz3.runs.worker"), stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=str(cwd),
        env=env, start_new_session=True, pass_fds=child_fds,
    )


def send_config(proc: subprocess.Popen[bytes], config: dict[str, Any]) -> None:
    """CRED-5: the configuration, credentials included, travels on stdin only, then stdin closes."""
    try:
        assert proc.stdin is not None
        proc.stdin.write(json.dumps(config).encode("utf-8"))
        proc.stdin.close()
    except OSError:
        pass


def kill_group(proc: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def drain_and_close(proc: subprocess.Popen[bytes], stdout: OutputCapture, stderr: OutputCapture) -> None:
    """Read what is left in stdout/stderr after the group was killed (bounded: 1 s), then close them."""
    streams = [(proc.stdout, stdout), (proc.stderr, stderr)]
    sel = selectors.DefaultSelector()
    for stream, capture in streams:
        if stream is not None and not stream.closed:
            try:
                sel.register(stream, selectors.EVENT_READ, capture)
            except (ValueError, KeyError):
                pass
    end = time.monotonic() + DRAIN_SECONDS
    try:
        while sel.get_map() and time.monotonic() < end:
            for key, _ in sel.select(max(0.0, end - time.monotonic())):
                chunk = os.read(key.fd, 65536)
                if chunk:
                    key.data.feed(chunk)
                else:
                    sel.unregister(key.fileobj)
    finally:
        sel.close()
    for stream, _ in streams:
        if stream is not None:
            stream.close()
    stdout.finish()
    stderr.finish()


def reap(proc: subprocess.Popen[bytes], stdout: OutputCapture, stderr: OutputCapture) -> None:
    """LIFE-4, whatever happened: kill the group, drain and close its pipes, wait for it briefly."""
    kill_group(proc)
    drain_and_close(proc, stdout, stderr)
    try:
        proc.wait(timeout=REAP_GRACE)
    except subprocess.TimeoutExpired:
        pass


def write_report(data: Path, report: dict[str, Any]) -> None:
    """SBX-3: the sandboxed worker cannot write under <data>; its MON-3 report is written here."""
    try:
        logs = data / "logs"
        logs.mkdir(parents=True, exist_ok=True, mode=0o700)
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S.%fZ")
        path = logs / f"soundness-{stamp}-{os.getpid()}.json"
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump({"schema_version": 1, **report}, fh, indent=2, sort_keys=True, ensure_ascii=False)
    except OSError:
        pass
