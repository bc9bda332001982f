"""Issue 11 §5: the bootstrap ticket is single-use and never in the bridge's environment or arguments.

The real host side (LifetimeServer), the real bridge entry (acp_params.bridge_entry) and the real
bridge process started from it exactly as an agent starts an mcpServers entry.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
from pathlib import Path

from clauz3.approvals.keys import SigningKey
from clauz3.sessions.agent.acp_params import bridge_entry
from clauz3.sessions.conversation.lifetime import LifetimeServer


async def _hello(path: str, ticket: str) -> bytes:
    reader, writer = await asyncio.open_unix_connection(path)
    writer.write((json.dumps({"hello": 1, "ticket": ticket}) + "\n").encode())
    await writer.drain()
    line = await asyncio.wait_for(reader.readline(), 10)
    writer.close()
    return line


async def test_the_ticket_is_never_in_proc_environ_or_cmdline_and_serves_one_handshake(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    server = LifetimeServer(tmp_path)
    creds = {"service_url": "http://127.0.0.1:9", "submission_token": "s" * 43,
             "verify_key": SigningKey.generate().verify_key.text, "workspace_generation": "g1",
             "conversation_id": "c1", "proof_timeout_seconds": 30}
    socket_path = await server.endpoint("c1")
    ticket = server.mint_ticket("c1", lambda: creds)
    ticket_file = server.ticket_file(ticket)
    assert oct(os.stat(ticket_file).st_mode & 0o777) == "0o600"
    entry = bridge_entry(python=os.sys.executable, bridge_args=["--project", str(project)],
                         lifetime_socket=socket_path, ticket_file=ticket_file, data_dir=str(data))
    # Started as an agent starts an mcpServers entry: command, args and the entry's env over the agent's,
    # here one with `export PYTHONPATH=$PYTHONPATH:/opt/x` and a sitecustomize.py an approved program wrote.
    escaped = tmp_path / "escaped.txt"
    (project / "sitecustomize.py").write_text(f"open({str(escaped)!r}, 'w').write('ran in the bridge')\n")
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": ":/opt/x"} | {
        e["name"]: e["value"] for e in entry["env"]}
    assert entry["args"][0] == "-I"
    proc = subprocess.Popen([entry["command"], *entry["args"]], env=env, cwd=str(project),
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        for _ in range(500):  # the handshake is done when the host holds the bridge's connection
            if server._tickets[ticket].writers or proc.poll() is not None:
                break
            await asyncio.sleep(0.02)
        assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
        assert server._tickets[ticket].writers, "the bridge never completed its handshake"
        environ = Path(f"/proc/{proc.pid}/environ").read_bytes()
        cmdline = Path(f"/proc/{proc.pid}/cmdline").read_bytes()
        assert b"CLAUZ3_SESSION_LIFETIME_SOCKET=" in environ  # we really read the bridge's environment
        assert ticket.encode() not in environ and ticket.encode() not in cmdline
        assert not os.path.exists(ticket_file)  # read and unlinked at once
        assert not escaped.exists()  # issue 11 §4: the workspace is not on the bridge's sys.path
        # A same-user process that learnt the ticket (say, from the agent's launch request) gets nothing.
        assert await _hello(socket_path, ticket) == b""
    finally:
        proc.kill()
        proc.wait()
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()
        await server.close()


async def test_a_restarted_bridge_with_the_same_entry_gets_no_credentials(tmp_path: Path) -> None:
    from clauz3.bridge.lifetime import BootstrapError, LifetimeLink

    server = LifetimeServer(tmp_path)
    socket_path = await server.endpoint("c1")
    ticket = server.mint_ticket("c1", lambda: {"service_url": "u", "submission_token": "t", "verify_key": "k"})
    ticket_file = server.ticket_file(ticket)
    env = {"CLAUZ3_SESSION_LIFETIME_SOCKET": socket_path, "CLAUZ3_BRIDGE_TICKET_FILE": ticket_file}
    first = await asyncio.to_thread(lambda: LifetimeLink.from_environment(env).handshake())
    assert first.submission_token == "t"
    try:
        LifetimeLink.from_environment(env)
    except BootstrapError as exc:
        assert "gone" in str(exc)
    else:
        raise AssertionError("a second bridge start read a spent ticket file")
    await server.close()
