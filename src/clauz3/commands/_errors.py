"""Uniform error handling for subcommands (05 CLI-4…CLI-7)."""

from __future__ import annotations

import argparse
import os
import signal
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path

from clauz3._version import __version__
from clauz3.commands._invocation import as_invoked
from clauz3.commands.errors import CommandError
from clauz3.layers.liberrors import LibraryError
from clauz3.sessions.launch.errors import LaunchError

__all__ = ["LAUNCH_EXIT", "LIBRARY_EXIT", "VERDICT_EXIT", "CommandError", "data_dir", "from_library", "launch_exit", "library_exit",
           "run_guarded"]

# Library error code → exit status (05 §2.1): the one place a library failure becomes a status.
LIBRARY_EXIT: dict[str, int] = {
    "invalid_request": 2, "unknown_source": 2, "in_use": 2, "review_expired": 2, "changed_since_review": 2,
    "refused": 2, "invalid_library": 2, "source_unavailable": 2,
    "busy": 5,
}
EXIT_PROGRAM_MISSING = 4  # a required external program (git) is missing or unusable


def library_exit(exc: LibraryError) -> int:
    """The exit status of a library failure: 4 when a required program is missing, else by code."""
    if exc.missing is not None:
        return EXIT_PROGRAM_MISSING
    return LIBRARY_EXIT.get(exc.code, 2)


# Launch error code → exit status (05 §2.1, 02 LAUNCH-6): busy 5, a missing program 4, a service that
# never answered 70 (internal), every other refusal 2.
LAUNCH_EXIT: dict[str, int] = {
    "startup_failed": 2, "store_incompatible": 2, "store_unreadable": 2, "port_in_use": 2, "cannot_listen": 2,
    "agent_not_started": 2, "reload_failed": 2,
    "project_in_use": 5,
    "program_missing": EXIT_PROGRAM_MISSING,
    "service_not_started": 70, "approval_service_not_started": 70, "reopen_failed": 70,
}


def launch_exit(exc: LaunchError) -> int:
    return LAUNCH_EXIT.get(exc.code, 2)


# Proof verdict → exit status (05 §2.1, 01 PCLI-4): a negative verdict 1; refused, failed or expired 2.
VERDICT_EXIT: dict[str, int] = {"proved": 0, "not_proved": 1, "refused": 2, "expired": 2}


def from_library(exc: LibraryError) -> CommandError:
    """The command's ``error:`` line and exit status for a library failure."""
    return CommandError(str(exc), library_exit(exc))


def data_dir() -> Path:
    from clauz3.storage.paths import RelativeHomeError
    from clauz3.storage.paths import data_dir as shared

    try:
        return shared()
    except RelativeHomeError as exc:
        raise CommandError(str(exc)) from None


def _crash_report(exc: BaseException) -> Path | None:
    try:
        data = data_dir()
        # DATA-2: every directory clauz3 creates is 0700, so <data> itself is made here, not as a parent.
        data.parent.mkdir(parents=True, exist_ok=True)
        data.mkdir(exist_ok=True, mode=0o700)
        logs = data / "logs"
        logs.mkdir(exist_ok=True, mode=0o700)
        if logs.is_symlink():
            return None
        stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
        path = logs / f"crash-{stamp}-{os.getpid()}.txt"
        text = f"clauz3 {__version__}\nargv: {sys.argv!r}\n\n" + "".join(traceback.format_exception(exc))
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
        with os.fdopen(fd, "w") as fh:
            fh.write(text)
        crashes = sorted(logs.glob("crash-*.txt"))
        for old in crashes[:-20]:
            old.unlink(missing_ok=True)
        return path
    except (OSError, CommandError):  # no crash file is better than a second failure
        return None


def run_guarded(fn: Callable[[argparse.Namespace], int], args: argparse.Namespace) -> int:
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(SystemExit(143)))
    try:
        return int(fn(args) or 0)
    except CommandError as exc:
        print(as_invoked(f"error: {exc}"), file=sys.stderr)
        return exc.code
    except LaunchError as exc:
        print(as_invoked(f"error: {exc}"), file=sys.stderr)
        return launch_exit(exc)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        try:
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        return 0
    except SystemExit:
        raise
    except Exception as exc:
        path = _crash_report(exc)
        if os.environ.get("CLAUZ3_DEBUG") == "1" or getattr(args, "debug", False):
            traceback.print_exc()
        where = f"; details in {path}" if path else ""
        print(f"error: internal error ({type(exc).__name__}){where}", file=sys.stderr)
        return 70
