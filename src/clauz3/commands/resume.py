"""``clauz3 resume [UUID]``: continue a saved conversation in this terminal (05 TRM-5..TRM-11)."""

from __future__ import annotations

import argparse
import os
import sys

from clauz3.commands._errors import CommandError, data_dir
from clauz3.commands.start import check_project_free, checked_data_dir
from clauz3.commands.ui import _port, check_agent

HELP = "Continue a saved conversation (browser or terminal) in this terminal with a fresh approval service."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("uuid", nargs="?", metavar="UUID",
                        help="conversation id (default: this folder's most recently updated conversation)")
    parser.add_argument("--list", action="store_true", help="list this folder's conversations, newest first")
    parser.add_argument("--accept-changes", action="store_true",
                        help="continue even if libraries, policy or skill documents changed (default: refuse)")
    parser.add_argument("--no-browser", action="store_true",
                        help="print the Approver UI link without opening a browser")
    parser.add_argument("--port", type=_port, default=0,
                        help="port of the approval service on 127.0.0.1; 0 picks a free one (default: 0)")
    parser.add_argument("--prompt", help="send TEXT as the first message after reattaching (default: none)")
    parser.add_argument("--debug", action="store_true", help="keep a private agent-stderr log and show tracebacks")


def _list(project: str) -> int:
    from clauz3.sessions.terminal.terminal_records import list_conversations, list_line

    data = data_dir()
    for row in list_conversations(data, project) if data.is_dir() else []:
        print(list_line(row))
    return 0


def run(args: argparse.Namespace) -> int:
    from clauz3.sessions.launch.config import LaunchConfig
    from clauz3.sessions.store.lease import LeaseHeld, acquire_conversation_lock
    from clauz3.sessions.store.store import StoreError
    from clauz3.sessions.terminal.terminal import TerminalOptions, run_terminal
    from clauz3.sessions.terminal.terminal_records import (
        RecordError,
        accept_changes,
        compare,
        find_conversation,
        is_id,
        load_record,
        prepare_resume,
    )

    if args.uuid is not None and not is_id(args.uuid):
        raise CommandError(f"not a conversation id: {args.uuid}")
    if args.prompt is not None and not args.prompt.strip():
        raise CommandError("--prompt needs some text (see clauz3 resume --help)")
    cwd = os.path.realpath(os.getcwd())
    try:
        if args.list:
            return _list(cwd)
        data = data_dir()
        if not data.is_dir():
            if args.uuid is None:
                raise CommandError("no saved conversation for this project; start one with clauz3 start <agent>")
            raise CommandError(f"no clauz3 conversation with id {args.uuid}")
        data = checked_data_dir()
        conversation_id, project = find_conversation(data, cwd, args.uuid)
        record = load_record(data, conversation_id, project)  # TRM-6, before any service starts
        try:  # TRM-7
            acquire_conversation_lock(data, conversation_id).release()
        except LeaseHeld:
            raise CommandError(f"conversation {conversation_id} is open in another clauz3 process", 5) from None
        claude = None
        if record.row.state.get("native_terminal") is True:  # TRM-11: the provider's own resume
            from clauz3.sessions.terminal.terminal_native import claude_cli

            claude = claude_cli()
        else:
            check_agent(record.row.agent)
        changes = compare(record, data)  # TRM-8
        state = None
        if changes.any:
            if not args.accept_changes:
                raise CommandError(changes.message(conversation_id), 6)
            state = accept_changes(record, changes, data)  # TRM-9
            if state.get("approvals_paused"):
                print("warning: automatic approvals are paused for this conversation because its libraries or "
                      "policy changed", file=sys.stderr, flush=True)
        check_project_free(data, project)
        prepare_resume(data, record, state)
    except RecordError as exc:
        raise CommandError(str(exc)) from None
    except StoreError as exc:
        raise CommandError(str(exc)) from None
    policy = record.policy if record.policy and os.path.isfile(record.policy) else None
    config = LaunchConfig(  # TRM-10: fresh keys and tokens; the recorded mode; never the chooser
        agent=record.row.agent, project=project, data_dir=str(data), tmp_dir="", port=args.port, login_token="",
        unrestricted=record.mode == "unrestricted", model=record.requested_model, policy=policy,
        skills_dirs=record.skills_dirs, debug=args.debug or os.environ.get("CLAUZ3_DEBUG") == "1")
    return run_terminal(config, TerminalOptions(conversation_id, open_browser=not args.no_browser,
                                                first_prompt=args.prompt, resuming=True, claude_cli=claude))
