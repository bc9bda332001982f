"""Everything the host needs to start one provider's adapter (04 SUP-2, SUP-3, ACP-4..8, §6–§11).

:func:`build_launch` is a pure function of host-owned values (ACP-4) except for creating the
private directory of a native adapter (NAT-4). Nothing from the browser, a prompt, project files
or adapter output is an input.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from clauz3.sessions.agent.acp_params import SessionParams
from clauz3.sessions.agent.process_group import AgentLaunch
from clauz3.sessions.agent.providers.registry import lookup

PRIVATE_DIR_VAR = "CLAUZ3_AGENT_PRIVATE_DIR"
LOOPBACK = "127.0.0.1,localhost"


@dataclass(frozen=True)
class ProviderLaunch:
    """One adapter start: the process to spawn and the session parameters to send.

    ``private_dir`` (pi, agy) must be deleted by the host after the adapter's group is reaped
    (SUP-6, :func:`remove_private_dir`). ``first_prompt_instructions`` is set for opencode: the
    first prompt of each fresh ACP session is :func:`.opencode.first_prompt` of it (PRV-8).
    """

    provider: str
    launch: AgentLaunch
    params: SessionParams
    private_dir: Path | None = None
    first_prompt_instructions: str | None = None


def adapter_env(
    base: Mapping[str, str],
    data_dir: str | os.PathLike[str],
    *,
    provider: str | None = None,
    instructions: str = "",
    private_dir: Path | None = None,
) -> dict[str, str]:
    """SUP-3: the service env minus every ``CLAUZ3_*``, plus ``CLAUZ3_HOME`` and loopback in
    ``NO_PROXY``, plus the provider's additions (CLD-3, CDX-2, OPC-2, NAT-4)."""
    env = {k: v for k, v in base.items() if not k.startswith("CLAUZ3_")}
    env["CLAUZ3_HOME"] = str(Path(data_dir).resolve())
    from clauz3.stdlib.smtpconfig import password_variable

    smtp_password = password_variable(Path(data_dir))  # issue 14: never in the agent's environment
    if smtp_password is not None:
        env.pop(smtp_password, None)
    for name in ("NO_PROXY", "no_proxy"):
        current = env.get(name, "")
        env[name] = f"{current},{LOOPBACK}" if current else LOOPBACK
    if provider is not None:
        agent = lookup(provider)
        env.update(agent.env(instructions))
        if agent.native and private_dir is not None:
            env[PRIVATE_DIR_VAR] = str(private_dir)
    return env


def session_meta(
    provider: str, *, instructions: str, requested_model: str | None, restricted: bool
) -> dict[str, Any] | None:
    """ACP-8: ``_meta`` of ``session/new`` and ``session/load`` (the provider's; None for codex, opencode,
    demo). Unknown ids fail loudly."""
    return lookup(provider).session_meta(
        instructions=instructions, requested_model=requested_model, restricted=restricted,
    )


def check_bridge_entry(entry: Mapping[str, Any]) -> None:
    """ACP-6's shape: one stdio entry named ``clauz3`` without ``type`` (claude drops typed ones)."""
    if entry.get("name") != "clauz3":
        raise ValueError("the bridge entry must be named clauz3")
    if "type" in entry:
        raise ValueError("the bridge entry must not carry a type field")
    if not isinstance(entry.get("command"), str) or not os.path.isabs(entry["command"]):
        raise ValueError("the bridge entry's command must be an absolute path")


def make_private_dir(tmp_root: str | os.PathLike[str] | None = None) -> Path:
    """NAT-4: a fresh 0700 directory under ``<tmp>`` for one native adapter start."""
    return Path(tempfile.mkdtemp(prefix="clauz3-agent-", dir=tmp_root)).resolve()


def remove_private_dir(path: Path | None) -> None:
    """Delete a native adapter's private dir (after its process group is reaped, SUP-6)."""
    if path is not None:
        shutil.rmtree(path, ignore_errors=True)


def build_launch(
    provider: str,
    *,
    project: str | os.PathLike[str],
    bridge_entry: Mapping[str, Any],
    data_dir: str | os.PathLike[str],
    adapter_argv: Sequence[str],
    instructions: str = "",
    requested_model: str | None = None,
    restricted: bool = True,
    base_env: Mapping[str, str] | None = None,
    wrap: Sequence[str] = (),
    pass_fds: tuple[int, ...] = (),
    debug_log: Path | None = None,
    tmp_root: str | os.PathLike[str] | None = None,
) -> ProviderLaunch:
    """The adapter process and session parameters for one start of ``provider``.

    ``adapter_argv`` is :attr:`.availability.Availability.argv` (absolute ``argv[0]``, SUP-2);
    ``wrap`` is put in front of it (the supervisor: ``python -P -m clauz3.sessions.agent.supervisor
    <fd> --``, whose fd goes in ``pass_fds``). ``base_env`` defaults to ``os.environ``.
    """
    agent = lookup(provider)
    check_bridge_entry(bridge_entry)
    if not adapter_argv or not os.path.isabs(adapter_argv[0]):
        raise ValueError("adapter argv[0] must be an absolute path")
    canonical = Path(os.path.realpath(project))
    private_dir = make_private_dir(tmp_root) if agent.native else None
    env = adapter_env(
        os.environ if base_env is None else base_env, data_dir,
        provider=provider, instructions=instructions, private_dir=private_dir,
    )
    launch = AgentLaunch(
        argv=[*wrap, *adapter_argv], cwd=canonical, env=env, pass_fds=pass_fds, debug_log=debug_log,
    )
    entry = {
        "name": "clauz3",
        "command": bridge_entry["command"],
        "args": list(bridge_entry.get("args", [])),
        "env": [dict(item) for item in bridge_entry.get("env", [])],
    }
    params = SessionParams(
        cwd=str(canonical),
        mcp_servers=(entry,),
        meta=agent.session_meta(instructions=instructions, requested_model=requested_model, restricted=restricted),
    )
    return ProviderLaunch(
        provider=provider, launch=launch, params=params, private_dir=private_dir,
        first_prompt_instructions=agent.first_prompt_instructions(instructions),
    )
