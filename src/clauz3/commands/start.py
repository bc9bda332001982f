"""``clauz3 start AGENT``: a new conversation in this terminal with a private approval service (05 TRM-1..4)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from clauz3.commands._errors import CommandError, data_dir
from clauz3.commands.ui import AGENTS, _port, add_session_arguments, approval_settings, check_agent

HELP = "Start a new agent conversation in this terminal, with a private approval service for this folder."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("agent", metavar="AGENT", help="claude, codex, agy, opencode, pi or demo")
    parser.add_argument("--port", type=_port, default=0,
                        help="port of the approval service on 127.0.0.1; 0 picks a free one (default: 0)")
    parser.add_argument("--no-browser", action="store_true",
                        help="print the Approver UI link without opening a browser")
    parser.add_argument("--policy", metavar="FILE", help="approval policy file (default: none)")
    parser.add_argument("--model", help="model name for the agent (default: the agent's default)")
    parser.add_argument("--prompt", help="send TEXT as the first message (default: none)")
    parser.add_argument("--setup", action="store_true",
                        help="open the Libraries page first in the Approver UI (default: off)")
    add_session_arguments(parser)


def checked_data_dir() -> Path:
    data = data_dir()
    try:
        data.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as exc:
        raise CommandError(f"cannot create {data}: {exc.strerror or exc}; set CLAUZ3_HOME to a writable folder") \
            from None
    return Path(os.path.realpath(data))


def check_project_free(data: Path, project: str) -> None:
    """TRM-1: the project lease must be free (exit 5); it is taken for real by the service."""
    from clauz3.sessions.store.lease import LeaseHeld, acquire_project_lease
    from clauz3.sessions.web.service import lease_message

    try:
        acquire_project_lease(data, project, port=None).release()
    except LeaseHeld as exc:
        raise CommandError(lease_message(exc), 5) from None


def run(args: argparse.Namespace) -> int:
    approvals = approval_settings(args)  # 03 CLI-9: bad numbers exit 2 before anything starts
    from clauz3.layers.selection import terminal_libraries_line
    from clauz3.layers.skills import SkillsError, selected_line, snapshot_skills
    from clauz3.sessions.agent.providers import lookup, mode_refusal, validate_model
    from clauz3.sessions.conversation.workspaces import launch_path_ok
    from clauz3.sessions.launch.config import LaunchConfig
    from clauz3.sessions.store.store import StoreError
    from clauz3.sessions.terminal.terminal import TerminalOptions, run_terminal
    from clauz3.sessions.terminal.terminal_records import create_terminal_conversation

    agent = args.agent
    if agent not in AGENTS:
        raise CommandError(f"unknown agent {agent!r}; choose one of {', '.join(AGENTS)} (see clauz3 start --help)")
    problem = mode_refusal(agent, unrestricted=args.unrestricted, command="start")
    if problem:
        raise CommandError(problem)
    if args.model is not None:
        try:
            validate_model(args.model)
        except ValueError as exc:
            raise CommandError(str(exc)) from None
    if args.prompt is not None and not args.prompt.strip():
        raise CommandError("--prompt needs some text (see clauz3 start --help)")
    claude = None
    if lookup(agent).own_terminal:
        from clauz3.sessions.terminal.terminal_native import claude_cli

        claude = claude_cli()  # CLD-7: Claude Code's own terminal UI (the one agent that has one)
    else:
        check_agent(agent)
    policy = os.path.abspath(args.policy) if args.policy else None
    if policy is not None:
        from clauz3.approvals.policies import PolicyError, load_policy

        try:
            load_policy(Path(policy))
        except (PolicyError, OSError) as exc:
            raise CommandError(f"{args.policy}: {exc}") from None
    skills_dirs = [os.path.abspath(p) for p in args.skills_dir]
    if skills_dirs:
        try:
            docs = snapshot_skills(skills_dirs)
        except SkillsError as exc:
            raise CommandError(str(exc)) from None
        print(selected_line(docs), file=sys.stderr, flush=True)
        if not docs:
            print("warning: no SKILL.md found in the --skills-dir folders", file=sys.stderr, flush=True)
    data = checked_data_dir()
    project = os.path.realpath(os.getcwd())
    if not launch_path_ok(data, project):
        raise CommandError("the clauz3 data directory cannot be opened as a workspace")
    check_project_free(data, project)
    mode = "unrestricted" if args.unrestricted else "restricted"
    try:
        row, dropped = create_terminal_conversation(data, project, agent=agent, mode=mode, policy=policy,
                                                    skills_dirs=skills_dirs, requested_model=args.model)
    except StoreError as exc:
        raise CommandError(str(exc)) from None
    if dropped:
        print(f"warning: {dropped}", file=sys.stderr, flush=True)
    print(terminal_libraries_line(row.state.get("libraries", [])), file=sys.stderr, flush=True)
    config = LaunchConfig(
        agent=agent, project=project, data_dir=str(data), tmp_dir="", port=args.port, login_token="",
        unrestricted=args.unrestricted, model=args.model, policy=policy, skills_dirs=skills_dirs,
        setup=args.setup, debug=args.debug or os.environ.get("CLAUZ3_DEBUG") == "1", **approvals)
    return run_terminal(config, TerminalOptions(row.id, open_browser=not args.no_browser,
                                                first_prompt=args.prompt, claude_cli=claude))
