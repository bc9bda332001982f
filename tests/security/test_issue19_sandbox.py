"""Issue 19 classes 3 and 4: code that runs in the worker stays in its sandbox; no interpreter the agent can write.

Real supervisor, real worker (cold and through ``clauz3 run``), real prover, the in-process mock authority and the
service's real control socket. The hostile code is a trusted effect of a lab layer in a tmp workspace.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from clauz3.approvals.mock import MockApprovalService
from clauz3.runs import sandbox
from clauz3.runs.supervisor import RunConfig, RunResult, Supervisor

PROBE = sandbox.probe(env={})
needs_landlock = pytest.mark.skipif(PROBE.mode != "landlock", reason="kernel without Landlock ABI ≥ 1")

LAB_EFFECTS = '''"""A hostile trusted library: each effect tries to leave the sandbox and says what happened."""

import errno
import json
import os
import socket

import clauz3


def _refused(exc: OSError) -> str:
    return "refused:" + errno.errorcode.get(exc.errno or 0, "?")


@clauz3.trusted
def tcp_connect(port: int) -> str:
    """Connect to 127.0.0.1:port."""
    try:
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    except OSError as exc:
        return _refused(exc)
    s.settimeout(10)
    try:
        s.connect(("127.0.0.1", port))
        return "connected"
    except OSError as exc:
        return _refused(exc)
    finally:
        s.close()


@clauz3.trusted
def ask_for_a_link(path: str) -> str:
    """Ask the service's control socket at path for a sign-in link."""
    try:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    except OSError as exc:
        return _refused(exc)
    s.settimeout(10)
    here = os.getcwd()
    try:
        os.chdir(os.path.dirname(path))  # a deep socket path is reached by its name, as clauz3 link does
        s.connect(os.path.basename(path))
        s.sendall(json.dumps({"op": "new_login"}).encode() + b"\\n")
        data = s.recv(65536)
        return "answered:" + data.decode("utf-8", "replace").strip()
    except OSError as exc:
        return _refused(exc)
    finally:
        s.close()
        os.chdir(here)


@clauz3.trusted
def plant(path: str) -> str:
    """Append a line to path (creating it)."""
    try:
        with open(path, "a") as fh:
            fh.write("planted\\n")
        return "wrote"
    except OSError as exc:
        return _refused(exc)


@clauz3.trusted
def plant_through_parent_root(path: str) -> str:
    """Append a line to path as the parent process's mount namespace shows it (/proc/<ppid>/root)."""
    return plant("/proc/" + str(os.getppid()) + "/root" + path)


@clauz3.trusted
def capabilities() -> str:
    """The effective capabilities of this thread, as /proc shows them."""
    with open("/proc/thread-self/status") as fh:
        return [line.split()[1] for line in fh if line.startswith("CapEff:")][0]


@clauz3.trusted
def parent_environment() -> str:
    """The parent process's environment as its /proc file shows it."""
    try:
        with open("/proc/" + str(os.getppid()) + "/environ", "rb") as fh:
            return fh.read().decode("utf-8", "replace").replace("\\0", " ")
    except OSError as exc:
        return _refused(exc)


@clauz3.trusted
def own_environment() -> str:
    """This process's environment, as its /proc file and os.environ show it."""
    with open("/proc/self/environ", "rb") as fh:
        shown = fh.read().decode("utf-8", "replace").replace("\\0", " ")
    return shown + " | " + " ".join(k + "=" + v for k, v in os.environ.items())
'''

LAB_CONTRACTS = '''"""Contracts over the lab library."""

from clauz3 import spec
from clauz3.spec import ContractSpec, contract


@contract(description="promises nothing")
def no_guarantees() -> ContractSpec:
    return spec.no_guarantees()
'''

NET_EFFECTS = '''"""A library whose effects use the network, and say so."""

import socket

import clauz3

CLAUZ3_NETWORK = True


@clauz3.trusted
def reach(port: int) -> str:
    """Connect to 127.0.0.1:port."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.settimeout(10)
    try:
        s.connect(("127.0.0.1", port))
        return "connected"
    except OSError as exc:
        return "refused:" + str(exc.errno)
    finally:
        s.close()
'''

MANIFEST = "schema_version: 1\nname: {name}\ntitle: {name} test library\nsummary: Issue 19 tests.\n" \
           "description: >-\n  Test-only effects that try to leave the run sandbox.\n"


def _library(project: Path, name: str, effects: str) -> Path:
    root = project / "tools" / name
    (root / "trusted").mkdir(parents=True)
    (root / "clauz3.yaml").write_text(MANIFEST.format(name=name))
    (root / "trusted" / "__init__.py").write_text(f'"""The {name} test library."""\n')
    (root / "trusted" / "effects.py").write_text(effects)
    (root / "trusted" / "contracts.py").write_text(LAB_CONTRACTS)
    return root / "trusted"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    proj = tmp_path / "proj"
    proj.mkdir()
    _library(proj, "lab", LAB_EFFECTS)
    (proj / ".clauz3").mkdir()
    (proj / ".clauz3" / "settings.txt").write_text("the person's\n")
    return proj


def _program(*lines: str, lib: str = "lab", names: str = "ask_for_a_link, own_environment, parent_environment, "
             "plant, plant_through_parent_root, tcp_connect, capabilities") -> str:
    body = "".join(f"    {line}\n" for line in lines)
    return (f"import clauz3\nfrom tools.{lib}.trusted import contracts as lab\n"
            f"from tools.{lib}.trusted.effects import {names}\n\n\n"
            f"@clauz3.guarantee(lab.no_guarantees())\ndef main() -> None:\n{body}")


def _run(project: Path, data: Path, svc: MockApprovalService, source: str, lib: str = "lab",
         spawn: object = None) -> RunResult:
    config = RunConfig(
        source=source, project=project, trusted_roots=[str(project / "tools" / lib / "trusted")],
        import_roots=[str(project)], service_url=svc.url, submission_token=svc.token,
        verify_key=svc.verify_key.text, data_dir=data, use_cache=False,
    )
    return Supervisor(config, spawn=spawn).run()  # type: ignore[arg-type]


def _lines(result: RunResult) -> dict[str, str]:
    out: dict[str, str] = {}
    for line in result.stdout.splitlines():
        key, _, value = line.partition(" ")
        out[key] = value
    return out


@pytest.fixture
def listener() -> Iterator[int]:
    """A TCP listener on 127.0.0.1 the hostile effect tries to reach (it accepts whatever connects)."""
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.bind(("127.0.0.1", 0))
    srv.listen(8)
    yield srv.getsockname()[1]
    srv.close()


@pytest.fixture
def control(data: Path, project: Path) -> Iterator[Path]:
    """The service's real control socket (what ``clauz3 link`` talks to), served on its own event loop."""
    from clauz3.sessions.web.control import ControlSocket, control_path

    path = control_path(data, os.path.realpath(project))
    loop = asyncio.new_event_loop()
    ctl = ControlSocket(path, lambda: "http://127.0.0.1:1/login#secret-sign-in-key")
    ready = threading.Event()

    def serve() -> None:
        asyncio.set_event_loop(loop)
        loop.run_until_complete(ctl.start())
        ready.set()
        loop.run_forever()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    assert ready.wait(60)
    yield path
    asyncio.run_coroutine_threadsafe(ctl.close(), loop).result(60)
    loop.call_soon_threadsafe(loop.stop)
    thread.join(60)


@needs_landlock
def test_a_hostile_effect_cannot_reach_loopback_the_control_socket_or_the_trusted_roots(
        project: Path, data: Path, listener: int, control: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from clauz3.sessions.web.control import request_link

    monkeypatch.setenv("CLAUZ3_SEARCH_API_KEY", "search-key-0123456789")  # an effect setting that is a secret

    trusted_file = project / "tools" / "lab" / "trusted" / "effects.py"
    before = trusted_file.read_bytes()
    program = _program(
        f'print("tcp " + tcp_connect({listener}))',
        f'print("control " + ask_for_a_link({str(control)!r}))',
        f'print("trusted " + plant({str(trusted_file)!r}))',
        f'print("newtrusted " + plant({str(trusted_file.parent / "extra.py")!r}))',
        f'print("viaparent " + plant_through_parent_root({str(trusted_file)!r}))',
        f'print("dotclauz3 " + plant({str(project / ".clauz3" / "settings.txt")!r}))',
        f'print("workspace " + plant({str(project / "notes.txt")!r}))',
        'print("own " + own_environment())',
        'print("caps " + capabilities())',
    )
    with MockApprovalService(data, project) as svc:
        result = _run(project, data, svc, program)
        request = svc.requests[-1]
    assert result.record.phase == "completed", (result.record.reason, result.record.message)
    got = _lines(result)
    assert got["tcp"].startswith("refused:"), got
    assert "login_url" not in got["control"] and "secret-sign-in-key" not in got["control"], got
    assert got["trusted"].startswith("refused:") and got["newtrusted"].startswith("refused:"), got
    assert got["viaparent"].startswith("refused:"), got
    assert int(got["caps"], 16) == 0, got  # no capability (a root worker's CAP_DAC_READ_SEARCH included)
    assert got["dotclauz3"].startswith("refused:"), got
    assert got["workspace"] == "wrote", got  # the run otherwise works: the workspace stays writable
    assert trusted_file.read_bytes() == before and not (trusted_file.parent / "extra.py").exists()
    assert (project / ".clauz3" / "settings.txt").read_text() == "the person's\n"
    assert (project / "notes.txt").read_text() == "planted\n"
    block = got["own"].split(" | ")[0]
    assert "CLAUZ3_HOME=" in block and "search-key-0123456789" not in block, got["own"]
    # The card says which protection keeps the network out; none is missing, so automatic approvals stay on.
    assert request["sandbox"]["network"]["mode"] == "landlock", request["sandbox"]
    assert "cannot use the network (Landlock" in request["sandbox"]["network"]["text"]
    assert request["sandbox"]["gaps"] == [], request["sandbox"]
    # The launcher side, which holds the control secret, still gets its link.
    assert request_link(control) == "http://127.0.0.1:1/login#secret-sign-in-key"
    # Any other same-user process reaching the socket (a run without the sandbox, say) gets nothing without the key.
    from clauz3.sessions.web.control import short_path

    for ask in ({"op": "new_login"}, {"op": "new_login", "key": "guessed"}):
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock, short_path(control) as where:
            sock.settimeout(60)
            sock.connect(where)
            sock.sendall(json.dumps(ask).encode() + b"\n")
            assert b"login" not in sock.recv(65536)


@needs_landlock
def test_a_warm_forked_worker_is_sandboxed_the_same_way(project: Path, data: Path, listener: int) -> None:
    from clauz3.bridge.warm import WarmProver

    trusted = str(project / "tools" / "lab" / "trusted")
    warm = WarmProver.start(project=project, trusted_roots=[trusted], import_roots=[str(project)])
    assert warm is not None and warm.wait_ready(120)
    try:
        program = _program(f'print("tcp " + tcp_connect({listener}))',
                           f'print("trusted " + plant({trusted + "/effects.py"!r}))')
        with MockApprovalService(data, project) as svc:
            result = _run(project, data, svc, program, spawn=warm.spawn)
    finally:
        warm.stop()
    assert warm.forks == 1
    assert result.record.phase == "completed", (result.record.reason, result.record.message)
    got = _lines(result)
    assert got["tcp"].startswith("refused:") and got["trusted"].startswith("refused:"), got


@needs_landlock
def test_a_library_that_declares_the_network_keeps_it_and_the_card_says_so(
        project: Path, data: Path, listener: int) -> None:
    _library(project, "net", NET_EFFECTS)
    program = _program(f'print("tcp " + reach({listener}))', lib="net", names="reach")
    with MockApprovalService(data, project) as svc:
        result = _run(project, data, svc, program, lib="net")
        request = svc.requests[-1]
    assert result.record.phase == "completed", (result.record.reason, result.record.message)
    assert _lines(result)["tcp"] == "connected"
    assert request["sandbox"]["network"]["mode"] == "declared", request["sandbox"]
    assert "can use the network" in request["sandbox"]["network"]["text"]


def _env(data: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAUZ3_")}
    env.update(CLAUZ3_HOME=str(data), CLAUZ3_PROOF_CACHE="0", **extra)
    return env


@needs_landlock
@pytest.mark.parametrize("given", ["environment", "descriptor"])
def test_clauz3_run_leaves_no_approval_token_in_any_environment_the_worker_can_read(
        project: Path, data: Path, given: str) -> None:
    (project / "main.py").write_text(_program('print("parent " + parent_environment())',
                                              'print("own " + own_environment())'))
    with MockApprovalService(data, project) as svc:
        argv = [sys.executable, "-m", "clauz3", "run", "--trusted-root", "tools/lab/trusted", "main.py"]
        fds: tuple[int, ...] = ()
        env = _env(data, CLAUZ3_APPROVAL_TOKEN=svc.token)
        if given == "descriptor":  # `clauz3 run --token-fd 3 3<token-file`: the token is in no environment
            read, write = os.pipe()
            os.write(write, svc.token.encode())
            os.close(write)
            fds, env = (read,), _env(data)
            argv[4:4] = ["--token-fd", str(read)]
        try:
            out = subprocess.run(argv, cwd=project, env=env, capture_output=True, text=True, timeout=180,
                                 stdin=subprocess.DEVNULL, pass_fds=fds)
        finally:
            for fd in fds:
                os.close(fd)
        token = svc.token
    assert out.returncode == 0, (out.stdout, out.stderr)
    assert "executed: main" in out.stdout
    parent = next(line for line in out.stdout.splitlines() if line.startswith("parent "))
    assert "CLAUZ3_HOME=" in parent or parent.startswith("parent refused:"), parent  # it did read something
    assert token not in out.stdout, "the approval token was readable by the program"


def test_the_file_library_refuses_interpreter_paths_with_a_reason(project: Path, data: Path) -> None:
    from clauz3.stdlib import fsops
    from clauz3.stdlib.runtime import set_run_context
    from clauz3.stdlib.safefs import FsError
    from clauz3.storage.journals import journal_path, open_journal

    fd = open_journal(journal_path(data, project, "issue19-pth"))
    set_run_context(project, journal=fd, protected_roots=[str(project / "tools" / "lab" / "trusted")])
    for path in (".venv/lib/python3.12/site-packages/evil.pth", "lib/site-packages/x.py", "evil.pth",
                 "sitecustomize.py", "pkg/usercustomize.py", "lib/dist-packages/y.py"):
        with pytest.raises(FsError, match="interpreter path") as info:
            fsops.write_file(path, "import os\n")
        assert "Python runs" in str(info.value)
        assert not (project / path).exists()
    (project / "notes").mkdir()
    fsops.write_file("notes/plain.txt", "fine\n")
    assert (project / "notes" / "plain.txt").read_text() == "fine\n"


def test_clauz3_run_refuses_an_interpreter_inside_the_workspace(project: Path, data: Path) -> None:
    venv = project / ".venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    (project / "main.py").write_text(_program('print("hi")'))
    site = [p for p in sys.path if p.endswith("site-packages")]
    src = str(Path(__file__).resolve().parents[2] / "src")
    env = _env(data, CLAUZ3_APPROVAL_TOKEN="t" * 32, PYTHONPATH=os.pathsep.join([src, *site]))
    out = subprocess.run([str(venv / "bin" / "python"), "-m", "clauz3", "run", "--trusted-root", "tools/lab/trusted",
                          "main.py"], cwd=project, env=env, capture_output=True, text=True, timeout=120,
                         stdin=subprocess.DEVNULL)
    assert out.returncode == 2, (out.stdout, out.stderr)
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1, out.stderr
    assert str(venv) in lines[0] and "inside the workspace" in lines[0] and "UV_PROJECT_ENVIRONMENT" in lines[0]
    assert "Traceback" not in out.stderr


def _in_child(code: str) -> list[str]:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout.split()


CONNECT = """
import errno, socket
def attempt(family, kind, where):
    try:
        s = socket.socket(family, kind)
    except OSError as exc:
        return "socket:" + errno.errorcode[exc.errno]
    try:
        s.settimeout(10)
        s.connect(where)
        return "connected"
    except OSError as exc:
        return "connect:" + errno.errorcode.get(exc.errno, "?")
"""


@pytest.mark.skipif(PROBE.abi is None or PROBE.abi < 4, reason="kernel Landlock ABI < 4: no network rules")
def test_landlock_network_rules_alone_stop_a_socket_made_before_the_sandbox(listener: int, tmp_path: Path) -> None:
    code = CONNECT + f"""
from pathlib import Path
from clauz3.runs import sandbox
early = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
abi = sandbox.probe(env={{}}).abi
sandbox.apply(sandbox.build_rules(abi=abi, workspace=Path({str(tmp_path)!r}), scratch=Path({str(tmp_path)!r})),
              abi, deny_tcp=True)
try:
    early.connect(("127.0.0.1", {listener}))
    print("early:connected")
except OSError as exc:
    print("early:" + errno.errorcode[exc.errno])
print(attempt(socket.AF_INET, socket.SOCK_STREAM, ("127.0.0.1", {listener})))
"""
    assert _in_child(code) == ["early:EACCES", "connect:EACCES"]


def test_the_seccomp_guard_refuses_every_socket_but_a_socketpair(listener: int, tmp_path: Path) -> None:
    from clauz3.runs import netguard

    if not netguard.seccomp_available():
        pytest.skip(f"no seccomp filter for {sys.platform}/{os.uname().machine}")
    code = CONNECT + f"""
from clauz3.runs import netguard
print(attempt(socket.AF_INET, socket.SOCK_STREAM, ("127.0.0.1", {listener})))
netguard.deny_sockets()
print(attempt(socket.AF_INET, socket.SOCK_STREAM, ("127.0.0.1", {listener})))
print(attempt(socket.AF_INET, socket.SOCK_DGRAM, ("127.0.0.1", 9)))
print(attempt(socket.AF_INET6, socket.SOCK_STREAM, ("::1", 9)))
print(attempt(socket.AF_UNIX, socket.SOCK_STREAM, {str(tmp_path / "some.sock")!r}))
a, b = socket.socketpair()
print("pair:ok")
"""
    assert _in_child(code) == ["connected", "socket:EACCES", "socket:EACCES", "socket:EACCES", "socket:EACCES",
                               "pair:ok"]


def test_an_unsandboxed_run_says_what_is_missing_and_turns_automatic_approvals_off(
        project: Path, data: Path, listener: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLAUZ3_SANDBOX", "off")
    with MockApprovalService(data, project) as svc:
        result = _run(project, data, svc, _program(f'print("tcp " + tcp_connect({listener}))'))
        request = svc.requests[-1]
    assert result.record.phase == "completed", (result.record.reason, result.record.message)
    assert request["sandbox"]["network"]["mode"] == "unavailable"
    assert request["sandbox"]["gaps"] and "not sandboxed" in request["sandbox"]["gaps"][0]
    from clauz3.approvals.requests import parse_request

    assert not parse_request(request).sandbox.automatic_allowed


def test_worker_environment_hands_secret_settings_over_stdin_only(tmp_path: Path) -> None:
    from clauz3.runs.workerproc import worker_environment, worker_secrets

    base = {"PATH": "/usr/bin", "CLAUZ3_SEARCH_API_KEY": "k", "HTTPS_PROXY": "http://u:pw@proxy:3128",
            "HTTP_PROXY": "http://proxy:3128", "CLAUZ3_APPROVAL_TOKEN": "t"}
    env = worker_environment(tmp_path, base=base, data_dir=tmp_path)
    assert "CLAUZ3_SEARCH_API_KEY" not in env and "HTTPS_PROXY" not in env and "CLAUZ3_APPROVAL_TOKEN" not in env
    assert env["HTTP_PROXY"] == "http://proxy:3128"
    assert worker_secrets(tmp_path, base) == {"CLAUZ3_SEARCH_API_KEY": "k", "HTTPS_PROXY": "http://u:pw@proxy:3128"}
