"""Argument parsing and dispatch only: each subcommand lives in ``clauz3.commands.<name>``.

A command module exposes ``HELP`` (one-line purpose), ``add_arguments(parser)`` and
``run(args) -> int``. Modules are imported lazily so ``clauz3 prove`` never loads web code.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys
from typing import NoReturn

from clauz3._version import __version__
from clauz3.base.errors import Clauz3Error
from clauz3.commands._invocation import as_invoked

COMMANDS: dict[str, str] = {
    "ui": "ui",
    "start": "start",
    "resume": "resume",
    "prove": "prove",
    "run": "run",
    "approval-service": "approval_service",
    "approval-keygen": "approval_keygen",
    "mock-approval-service": "mock_approval_service",
    "policy-check": "policy_check",
    "tools": "tools",
    "libraries": "libraries",
    "install": "install",
    "test": "test",
    "lint": "lint",
    "config": "config",
    "link": "link",
}


# Issue 22: each subcommand's --help ends with examples that work as pasted (in any folder unless noted).
EXAMPLES: dict[str, tuple[str, ...]] = {
    "ui": ("clauz3 ui demo --tutorial email      # the email tutorial with the scripted demo agent",
           "clauz3 ui demo                       # this folder as a workspace, with the demo agent"),
    "start": ("clauz3 start demo                    # a conversation in this terminal with the demo agent",),
    "resume": ("clauz3 resume --list                 # this folder's saved conversations, newest first",
               "clauz3 resume                        # reopen the newest one"),
    "prove": ("clauz3 prove program.py              # prove the guarantees of program.py in this folder",),
    "run": ("clauz3 run program.py                # prove, ask for approval, then run program.py",),
    "tools": ("clauz3 tools                         # the installed library functions",
              "clauz3 tools email                   # only those matching \"email\""),
    "libraries": ("clauz3 libraries                     # the library catalogue",
                  "clauz3 libraries files              # libraries matching \"files\""),
    "install": ("clauz3 install stdlib:filesystem --dry-run   # review installing the filesystem library",),
    "test": ("clauz3 test stdlib:filesystem        # prove the library's own recipes",),
    "lint": ("clauz3 lint tools                    # check the libraries in ./tools",),
    "link": ("clauz3 link                          # a new sign-in link for this folder's workspace",),
    "config": ("clauz3 config smtp                   # write the SMTP settings template",),
}


def _epilog(name: str) -> str | None:
    from clauz3.commands._invocation import as_invoked

    lines = EXAMPLES.get(name)
    return "examples:\n" + "\n".join(f"  {as_invoked(line)}" for line in lines) if lines else None


class UsageError(Clauz3Error):
    pass


class _Parser(argparse.ArgumentParser):
    """argparse that reports usage errors as one line (05 CLI-4) instead of a usage dump."""

    def error(self, message: str) -> NoReturn:
        sub = self.prog.split(" ", 1)[1] if " " in self.prog else ""
        see = f" (see clauz3 {sub} --help)" if sub else " (see clauz3 --help)"
        raise UsageError(f"{message}{see}")


def _available(name: str) -> bool:
    return importlib.util.find_spec(f"clauz3.commands.{COMMANDS[name]}") is not None


def build_parser(command: str | None) -> argparse.ArgumentParser:
    parser = _Parser(prog="clauz3", description="Prove, approve and run agent programs.")
    parser.add_argument("--version", action="version", version=f"clauz3 {__version__}")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)
    for name, module_name in COMMANDS.items():
        if command is not None and name != command:
            if _available(name):
                sub.add_parser(name)
            continue
        if not _available(name):
            continue
        module = importlib.import_module(f"clauz3.commands.{module_name}")
        p = sub.add_parser(name, help=module.HELP, description=module.HELP, epilog=_epilog(name),
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        module.add_arguments(p)
        p.set_defaults(_run=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    command = next((a for a in argv if not a.startswith("-")), None)
    if command is not None and command not in COMMANDS:
        print(as_invoked(f"error: unknown subcommand {command!r} (see clauz3 --help)"), file=sys.stderr)
        return 2
    try:
        parser = build_parser(command)
        args = parser.parse_args(argv)
    except UsageError as exc:
        message = str(exc)
        if command is not None:  # argparse reports unknown flags from the top-level parser
            message = message.replace("(see clauz3 --help)", f"(see clauz3 {command} --help)")
        print(as_invoked(f"error: {message}"), file=sys.stderr)
        return 2
    if getattr(args, "_run", None) is None:
        names = [n for n in COMMANDS if _available(n)]
        print("usage: clauz3 <subcommand> …\nsubcommands: " + ", ".join(names), file=sys.stderr)
        return 2
    from clauz3.commands._errors import run_guarded

    return run_guarded(args._run, args)
