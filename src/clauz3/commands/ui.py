"""``clauz3 ui``: the loopback browser workspace (05 CLI-12, 02 §1)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TypedDict

from clauz3.commands._errors import CommandError, data_dir

HELP = "Start the private browser workspace for this folder on 127.0.0.1."
AGENTS = ("claude", "codex", "agy", "opencode", "pi", "demo")
TUTORIAL_IDS = ("email", "real-files")


def _port(text: str) -> int:
    if not text.isdigit() or not 0 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"--port must be an integer from 0 to 65535, not {text!r}")
    return int(text)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("agent", nargs="?", metavar="AGENT",
                        help="claude, codex, agy, opencode, pi or demo (default: claude if installed, else demo)")
    parser.add_argument("--port", type=_port, default=0, help="port on 127.0.0.1; 0 picks a free one (default: 0)")
    parser.add_argument("--no-browser", action="store_true", help="print the sign-in link without opening a browser")
    parser.add_argument("--tutorial", nargs="?", const="email", default=None, metavar="ID",
                        help="open a tutorial workspace: email (default) or real-files")
    parser.add_argument("--model", help="model name for the agent (default: the agent's default)")
    parser.add_argument("--prompt", help="send TEXT as the first prompt of a new conversation")
    parser.add_argument("--setup", action="store_true", help="open the Libraries page first")
    parser.add_argument("--policy", metavar="FILE", help="approval policy file (default: none)")
    add_session_arguments(parser)


def add_session_arguments(parser: argparse.ArgumentParser) -> None:
    """The trailing flags `ui` and `start` share: skills folders, mode, debug, then the approval flags."""
    parser.add_argument("--skills-dir", action="append", default=[], metavar="DIR",
                        help="extra skills folder (repeatable; default: none)")
    parser.add_argument("--unrestricted", action="store_true",
                        help="let agents that need it use their native tools (default: restricted)")
    parser.add_argument("--debug", action="store_true", help="keep a private agent-stderr log and show tracebacks")
    add_approval_arguments(parser)


def add_approval_arguments(parser: argparse.ArgumentParser) -> None:
    """03 CLI-9: the approval flags `ui` and `start` pass to the in-process authority and bridges."""
    parser.add_argument("--policy-timeout", metavar="S", default=None,
                        help="seconds for policy evaluation, 1–120 (default: 20)")
    parser.add_argument("--approval-wait", metavar="S", default=None,
                        help="seconds a request waits for a decision, 10–86400 (default: 300)")
    parser.add_argument("--proof-timeout", metavar="S", default=None,
                        help="seconds for a whole proof, 0 < S ≤ 600 (default: 30)")
    parser.add_argument("--require-sandbox", action="store_true",
                        help="refuse runs when the Landlock sandbox is unavailable (default: off)")


class ApprovalSettings(TypedDict):
    """The CLI-9 fields of LaunchConfig, as ``approval_settings`` validated them."""

    policy_timeout: float | None
    approval_wait: float | None
    proof_timeout: float | None
    require_sandbox: bool


def approval_settings(args: argparse.Namespace) -> ApprovalSettings:
    """Validated CLI-9 values for LaunchConfig; bad numbers exit 2 before anything starts."""
    from clauz3.prover.pipeline import parse_timeout, timeout_from_env

    try:
        policy = parse_timeout(args.policy_timeout, "--policy-timeout", 1, 120, True) \
            if args.policy_timeout is not None else None
        wait = parse_timeout(args.approval_wait, "--approval-wait", 10, 86400, True) \
            if args.approval_wait is not None else None
        if args.proof_timeout is not None:
            proof: float | None = parse_timeout(args.proof_timeout, "--proof-timeout", 0, 600, False)
        else:
            proof = timeout_from_env("CLAUZ3_PROOF_TIMEOUT_SECONDS", 30.0, 0, 600, False)
    except ValueError as exc:
        raise CommandError(str(exc)) from None
    require = bool(args.require_sandbox) or os.environ.get("CLAUZ3_REQUIRE_SANDBOX") == "1"
    return {"policy_timeout": policy, "approval_wait": wait, "proof_timeout": proof, "require_sandbox": require}


def check_agent(agent: str) -> None:
    """PRV-4 / TRM-1: the agent program and its version; exit 4 with :meth:`Availability.error_line` (the one
    place the line is formatted; ``ui``, ``start`` and ``resume`` all end here)."""
    from clauz3.sessions.agent.providers import LABELS, check

    found = check(agent)
    if not found.available:
        raise CommandError(found.error_line(LABELS[agent]), 4)


def run(args: argparse.Namespace) -> int:
    from clauz3.sessions.agent.providers import (
        NEEDS_AGENT_NAME,
        default_provider,
        mode_refusal,
    )
    from clauz3.sessions.conversation.tutorials import TutorialError, prepare
    from clauz3.sessions.launch.config import LaunchConfig
    from clauz3.sessions.launch.launcher import Launcher

    agent = args.agent
    if agent is not None and agent not in AGENTS:
        raise CommandError(f"unknown agent {agent!r}; choose one of {', '.join(AGENTS)} (see clauz3 ui --help)")
    if args.tutorial is not None and args.tutorial not in TUTORIAL_IDS:
        raise CommandError(f"unknown tutorial {args.tutorial!r}; choose email or real-files")
    if args.tutorial is not None and (args.unrestricted or args.prompt is not None):
        raise CommandError("--tutorial cannot be combined with --unrestricted or --prompt")
    warning = None
    fallback = False
    if agent is None:
        if args.unrestricted:
            raise CommandError(NEEDS_AGENT_NAME)
        choice = default_provider()  # PRV-1: claude when installed, else demo with the notice
        agent, warning, fallback = choice.provider, choice.notice, choice.notice is not None
    problem = mode_refusal(agent, unrestricted=args.unrestricted, command="ui")
    if problem:
        raise CommandError(problem)
    check_agent(agent)
    data = data_dir()
    try:
        data.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as exc:
        raise CommandError(f"cannot create {data}: {exc.strerror or exc}; set CLAUZ3_HOME to a writable folder") \
            from None
    data = Path(os.path.realpath(data))
    if args.tutorial is not None:
        try:
            project = str(prepare(data, args.tutorial))
        except TutorialError as exc:
            raise CommandError(str(exc)) from None
    else:
        from clauz3.sessions.conversation.workspaces import launch_path_ok

        # (imported here: it loads the approval authority, which a tutorial launch does not need)
        project = os.path.realpath(os.getcwd())
        if not launch_path_ok(data, project):
            raise CommandError("the clauz3 data directory cannot be opened as a workspace")
    for path in [args.policy, *args.skills_dir]:
        if path is not None and not os.path.exists(path):
            raise CommandError(f"cannot read {path}: no such file or folder")
    config = LaunchConfig(
        agent=agent, project=project, data_dir=str(data), tmp_dir="", port=args.port, login_token="",
        unrestricted=args.unrestricted, tutorial=args.tutorial, model=args.model, prompt=args.prompt,
        policy=os.path.abspath(args.policy) if args.policy else None,
        skills_dirs=[os.path.abspath(p) for p in args.skills_dir], setup=args.setup,
        debug=args.debug or os.environ.get("CLAUZ3_DEBUG") == "1", claude_fallback=fallback,
        **approval_settings(args))
    return Launcher(config, open_browser=not args.no_browser, warning=warning, wait_small=True).run()
