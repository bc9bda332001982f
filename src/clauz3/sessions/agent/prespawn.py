"""The launch's demo adapter, started before the service's own imports (issue 13, 00 DEC-6).

The demo's start (Python plus the ACP SDK's schema, about 0.7 s of CPU) is the longest step before a
first page can send. :func:`start` spawns it, under its supervisor and lifetime pipe exactly as
:meth:`ConversationRuntime.start_agent` would, the moment the service process has read its launch
configuration; the service then imports and builds itself on the other core while the adapter loads.

Nothing is sent to the adapter here: ACP starts with the host's ``initialize``, so a waiting adapter is
indistinguishable from one spawned later. :meth:`Prespawned.adopt` hands the process over only when the
launch the conversation builds is identical (argv, cwd, environment, inherited fds); otherwise, or when
the first conversation runs another agent, the prespawned group is killed and the normal start runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
from dataclasses import dataclass
from pathlib import Path

from clauz3.sessions.agent.process_group import AgentLaunch, AgentProcess
from clauz3.sessions.launch.config import LaunchConfig


def supervisor_wrap(read_fd: int) -> tuple[str, ...]:
    """The supervisor in front of every adapter (02 PROC-1); its fd is the lifetime pipe's read end."""
    return (sys.executable, "-P", "-m", "clauz3.sessions.agent.supervisor", str(read_fd), "--")


@dataclass
class Prespawned:
    provider: str
    launch: AgentLaunch
    process: AgentProcess
    read_fd: int  # kept open (and so reserved) until the conversation closes it after the start
    write_fd: int

    async def adopt(self, launch: AgentLaunch) -> AgentProcess | None:
        """The waiting process if ``launch`` is exactly the one it was started with, else None (killed)."""
        if _same(launch, self.launch) and self.process.returncode is None:
            return self.process
        await self.process.end()
        return None


_waiting: Prespawned | None = None
_discarding: set[asyncio.Future[None]] = set()  # referenced until done


def _same(a: AgentLaunch, b: AgentLaunch) -> bool:
    return (list(a.argv) == list(b.argv) and str(a.cwd) == str(b.cwd) and dict(a.env) == dict(b.env)
            and tuple(a.pass_fds) == tuple(b.pass_fds) and a.debug_log == b.debug_log)


async def start(config: LaunchConfig) -> None:
    """Spawn the launch agent's adapter if it is one whose launch is known now; any failure is silent
    (the conversation then starts it the ordinary way and reports what goes wrong)."""
    global _waiting
    if _waiting is not None or config.bridge_argv:
        return
    from clauz3.sessions.agent.providers import PROVIDERS, check
    from clauz3.sessions.agent.providers.launch import adapter_env

    provider = PROVIDERS.get(config.agent)
    if provider is None or not provider.prespawn:  # only a launch that depends on nothing decided later
        return
    try:
        found = check(config.agent)
        if not found.available or not found.argv or not os.path.isabs(found.argv[0]):
            return
        read_fd, write_fd = os.pipe()
    except (OSError, ValueError, KeyError):
        return
    os.set_inheritable(write_fd, False)
    launch = AgentLaunch(argv=[*supervisor_wrap(read_fd), *found.argv],
                         cwd=Path(os.path.realpath(config.project)),
                         env=adapter_env(os.environ, config.data_dir, provider=config.agent),
                         pass_fds=(read_fd,))
    try:
        process = await AgentProcess.start(launch)
    except OSError:
        os.close(read_fd)
        os.close(write_fd)
        return
    _waiting = Prespawned(config.agent, launch, process, read_fd, write_fd)


def take(provider: str) -> Prespawned | None:
    """The prespawned adapter for ``provider`` (once); None when there is none or it is another's."""
    global _waiting
    found = _waiting
    if found is None:
        return None
    if found.provider != provider:
        _discarding.add(asyncio.ensure_future(discard()))  # the first conversation runs another agent
        return None
    _waiting = None
    return found


async def discard() -> None:
    """End a prespawned adapter nobody took (the first conversation ran another agent, or none started)."""
    global _waiting
    found, _waiting = _waiting, None
    if found is None:
        return
    await found.process.end()
    for fd in (found.read_fd, found.write_fd):
        with contextlib.suppress(OSError):
            os.close(fd)
