"""Bodies of the ``smtp`` effects: one message per call, submitted over STARTTLS or implicit TLS.

The run worker calls :func:`prepare` before its sandbox applies, because the settings and the
password file live in the data dir, which the sandbox does not let the worker read; without that
call (a test, an unsandboxed caller) the first send loads them itself. One connection per message
and exactly one attempt: a refused login raises :class:`SmtpError` with one line and is never
retried, so a wrong password cannot lock the account or send a message twice.
"""

from __future__ import annotations

import mimetypes
import os
import smtplib
import ssl
import sys
import threading
from collections.abc import Callable
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from pathlib import Path

from clauz3.stdlib.errors import StdlibError
from clauz3.stdlib.smtpconfig import ADDRESS, Credentials, SmtpConfigError, load

__all__ = ["ATTACHMENT_CAP", "SmtpError", "check_login", "clear", "compose", "preload", "prepare", "send"]

ATTACHMENT_CAP = 10 * 1024 * 1024
TIMEOUT = 30.0

_lock = threading.Lock()
_loaded: Credentials | None = None
_load_error: str | None = None


class SmtpError(StdlibError):
    """A message that was not sent; the message is one line and holds no secret."""


def prepare(data: Path) -> Credentials:
    """Load settings, password and CA bundle into this process (before the sandbox applies)."""
    global _loaded
    try:
        creds = load(data)
    except SmtpConfigError as exc:
        raise SmtpError(str(exc)) from None
    with _lock:
        _loaded = creds
    return creds


def preload(data: Path, *, wanted: bool) -> None:
    """The run worker's call before its sandbox: always drop the password variable from this
    process's environment (a program using stdlib:env must not read it), and keep the settings only
    when the program sends email; a loading error is kept and raised by the first send."""
    global _load_error
    from clauz3.stdlib.smtpconfig import password_variable

    name = password_variable(data)
    if not wanted:
        if name is not None:
            os.environ.pop(name, None)
        return
    try:
        prepare(data)
    except SmtpError as exc:
        with _lock:
            _load_error = str(exc)
    finally:
        if name is not None:
            os.environ.pop(name, None)


def clear() -> None:
    global _loaded, _load_error
    with _lock:
        _loaded = None
        _load_error = None


def _credentials() -> Credentials:
    with _lock:
        creds, error = _loaded, _load_error
    if creds is not None:
        return creds
    if error is not None:
        raise SmtpError(error)
    from clauz3.storage.paths import data_dir

    return prepare(data_dir())


def _attachment(path: str) -> tuple[str, bytes]:
    # Reuses the filesystem library's confined reader: no symlink, nothing outside the project.
    from clauz3.stdlib.fsops import _parent, _read_bytes

    with _parent(path) as (_, dirfd, name, shown):
        data, _ = _read_bytes(dirfd, name, shown, ATTACHMENT_CAP)
    return name, data


def compose(sender: str, to: str, subject: str, body: str, attachment: str | None) -> EmailMessage:
    msg = EmailMessage()
    try:
        msg["From"] = sender
        msg["To"] = to
        msg["Subject"] = subject
    except ValueError as exc:  # a header with a line break: refused, never folded into another header
        raise SmtpError(f"refused message to {to}: {exc}") from None
    msg["Date"] = formatdate(localtime=False)
    msg["Message-ID"] = make_msgid(domain=sender.rsplit("@", 1)[1])
    msg.set_content(body)
    if attachment is not None:
        name, data = _attachment(attachment)
        kind = mimetypes.guess_type(name)[0] or "application/octet-stream"
        main, sub = kind.split("/", 1)
        msg.add_attachment(data, maintype=main, subtype=sub, filename=name)
    return msg


def _context(creds: Credentials) -> ssl.SSLContext:
    ctx = ssl.create_default_context()
    if creds.ca_data is not None:
        ctx.load_verify_locations(cadata=creds.ca_data)
    return ctx


def _login_once(client: smtplib.SMTP, user: str, password: str) -> None:
    # smtplib's login() tries every mechanism the server offers after a refusal: a wrong password
    # would count as several failed logins. One mechanism, one attempt.
    if not client.has_extn("auth"):
        raise smtplib.SMTPNotSupportedError("login (AUTH)")
    offered = (client.esmtp_features.get("auth") or "").upper().split()
    mechanism = next((m for m in ("PLAIN", "LOGIN") if m in offered), None)
    if mechanism is None:
        raise SmtpError(f"SMTP server offers no PLAIN or LOGIN authentication (offers {' '.join(offered) or 'none'})")
    client.user, client.password = user, password
    authobject = client.auth_plain if mechanism == "PLAIN" else client.auth_login
    client.auth(mechanism, authobject, initial_response_ok=True)


def send(to: str, subject: str, body: str, attachment: str | None = None) -> None:
    """Submit one message from the configured sender to ``to`` (or print it in dry-run mode)."""
    if not ADDRESS.match(to):  # the precondition again, in full, before anything is composed
        raise SmtpError(f"refused recipient {to!r}: not one plain email address")
    creds = _credentials()
    s = creds.settings
    msg = compose(s.sender, to, subject, body, attachment)
    if s.dry_run:
        size = len(msg.as_bytes())
        print(f"smtp dry run: not sent: to {to}, subject {subject!r}, {size} bytes", file=sys.stderr)
        return
    _submit(creds, lambda client: _deliver(client, msg, s.sender, to, f"{s.host}:{s.port}"))


def _deliver(client: smtplib.SMTP, msg: EmailMessage, sender: str, to: str, where: str) -> None:
    try:
        refused = client.send_message(msg, from_addr=sender, to_addrs=[to])
    except smtplib.SMTPRecipientsRefused:
        refused = {to: (550, b"")}
    if refused:
        raise SmtpError(f"SMTP server {where} refused the recipient {to}")


def check_login(creds: Credentials) -> None:
    """Connect, secure, log in once and quit, sending nothing (``clauz3 config smtp --check``)."""
    _submit(creds, lambda client: None)


def _submit(creds: Credentials, action: Callable[[smtplib.SMTP], None]) -> None:
    s = creds.settings
    where = f"{s.host}:{s.port}"
    try:
        if s.security == "tls":
            client: smtplib.SMTP = smtplib.SMTP_SSL(s.host, s.port, timeout=TIMEOUT, context=_context(creds))
        else:
            client = smtplib.SMTP(s.host, s.port, timeout=TIMEOUT)
        with client:
            if s.security == "starttls":
                client.ehlo()
                if not client.has_extn("starttls"):
                    raise SmtpError(f"SMTP server {where} does not offer STARTTLS; nothing was sent")
                client.starttls(context=_context(creds))
            client.ehlo()
            try:
                _login_once(client, s.username, creds.password or "")
            except smtplib.SMTPAuthenticationError as exc:
                raise SmtpError(f"SMTP server {where} refused the login for {s.username} ({exc.smtp_code}); "
                                "check the password with clauz3 config smtp; nothing was sent") from None
            action(client)
    except SmtpError:
        raise
    except smtplib.SMTPNotSupportedError as exc:  # no AUTH, or SMTPUTF8 for a non-ASCII address
        raise SmtpError(f"SMTP server {where} does not support what this message needs ({exc}); nothing was sent") from None
    except smtplib.SMTPResponseException as exc:
        text = exc.smtp_error.decode("utf-8", "replace") if isinstance(exc.smtp_error, bytes) else str(exc.smtp_error)
        raise SmtpError(f"SMTP server {where} answered {exc.smtp_code} {text.splitlines()[0] if text else ''}".rstrip()) from None
    except ssl.SSLError as exc:
        raise SmtpError(f"TLS with SMTP server {where} failed: {exc.reason or exc}") from None
    except (OSError, smtplib.SMTPException) as exc:
        raise SmtpError(f"cannot submit to SMTP server {where}: {exc}") from None
