"""``clauz3 config smtp …``: the server, sender and password source of ``stdlib:smtp``.

The password is never an argument (argv shows in ``ps`` and shell history): it is read from stdin
with ``--password-stdin`` (without echo on a terminal) into ``<data>/smtp/password`` (0600), or the
settings name an environment variable with ``--password-env``. Omitted options keep saved values.
"""

from __future__ import annotations

import argparse
import getpass
import sys
from dataclasses import replace

from clauz3.commands._errors import CommandError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("smtp (clauz3 config smtp …: settings of stdlib:smtp)")
    group.add_argument("--host", default=None, help="SMTP submission server host name")
    group.add_argument("--port", type=int, default=None, help="server port (default 587 for starttls, 465 for tls)")
    group.add_argument("--security", choices=["starttls", "tls"], default=None,
                       help="STARTTLS on a plain connection, or implicit TLS (default: starttls)")
    group.add_argument("--user", default=None, help="login name (default: the sender address)")
    group.add_argument("--sender", default=None, help="From address of every message")
    group.add_argument("--password-env", metavar="NAME", default=None,
                       help="read the password from this environment variable at run time")
    group.add_argument("--password-stdin", action="store_true",
                       help="read the password from stdin into a 0600 file in the data dir")
    group.add_argument("--ca-file", default=None, help="extra CA certificate bundle (absolute path) for the server")
    dry = group.add_mutually_exclusive_group()
    dry.add_argument("--dry-run", dest="dry_run", action="store_true", default=None,
                     help="compose messages and print a line for each, without connecting")
    dry.add_argument("--no-dry-run", dest="dry_run", action="store_false", help="send for real (default)")
    group.add_argument("--show", action="store_true", help="print the saved settings (never the password)")
    group.add_argument("--check", action="store_true",
                       help="after saving, connect and log in once without sending anything")


SMTP_OPTIONS = ("host", "port", "security", "user", "sender", "password_env", "ca_file", "dry_run")


def given(args: argparse.Namespace) -> bool:
    """Whether any smtp option was given (they need the ``smtp`` section word)."""
    return any(getattr(args, k, None) is not None for k in SMTP_OPTIONS) or bool(
        getattr(args, "password_stdin", False) or getattr(args, "show", False) or getattr(args, "check", False))


def _read_password() -> str:
    if sys.stdin.isatty():
        return getpass.getpass("SMTP password: ")
    return sys.stdin.readline().rstrip("\r\n")


def run(args: argparse.Namespace) -> int:
    from clauz3.stdlib.smtpconfig import (
        Settings,
        SmtpConfigError,
        load_settings,
        password_path,
        save_password,
        save_settings,
    )
    from clauz3.storage.paths import data_dir

    data = data_dir()
    try:
        old = load_settings(data)
        if args.show:
            if old is None:
                print("SMTP is not configured")
                return 0
            where = f"environment variable {old.password_env}" if old.password_env else (
                f"file {password_path(data)}" if password_path(data).exists() else "not saved")
            print(f"smtp: {old.security} {old.host}:{old.port} user {old.username} sender {old.sender}"
                  f"{' (dry run)' if old.dry_run else ''}; password: {where}")
            return 0
        if old is None:
            if args.host is None or args.sender is None:
                raise CommandError("clauz3 config smtp needs --host and --sender the first time")
            security = args.security or "starttls"
            old = Settings(host=args.host, port=args.port or (465 if security == "tls" else 587), security=security,
                           username=args.user or args.sender, sender=args.sender)
        new = replace(
            old,
            host=args.host if args.host is not None else old.host,
            security=args.security or old.security,
            port=args.port if args.port is not None else old.port,
            username=args.user if args.user is not None else old.username,
            sender=args.sender if args.sender is not None else old.sender,
            password_env=(args.password_env or None) if args.password_env is not None else (
                None if args.password_stdin else old.password_env),
            ca_file=(args.ca_file or None) if args.ca_file is not None else old.ca_file,
            dry_run=args.dry_run if args.dry_run is not None else old.dry_run,
        )
        new.check()
        if args.password_stdin:
            save_password(data, _read_password())
            print(f"saved the SMTP password to {password_path(data)} (0600)")
        path = save_settings(data, new)
    except SmtpConfigError as exc:
        raise CommandError(str(exc)) from None
    print(f"wrote {path}: {new.security} {new.host}:{new.port} sender {new.sender}{' (dry run)' if new.dry_run else ''}")
    if args.check:
        from clauz3.stdlib.smtpconfig import load
        from clauz3.stdlib.smtpsend import SmtpError, check_login

        try:
            check_login(load(data))
        except (SmtpConfigError, SmtpError) as exc:
            raise CommandError(str(exc)) from None
        print(f"logged in to {new.host}:{new.port} as {new.username}; nothing was sent")
    return 0
