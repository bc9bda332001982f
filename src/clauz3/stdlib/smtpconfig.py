"""The ``stdlib:smtp`` settings: server, sender and where the password lives (``clauz3 config smtp``).

Settings are ``<data>/smtp/settings.json`` (0600 in a 0700 directory). The password is never in the
settings, a program, history or logs: it is either ``<data>/smtp/password`` (0600, written by
``clauz3 config smtp --password-stdin``) or the value of an environment variable the settings name.
The run worker loads both with :func:`load` before its sandbox applies (the data dir is not readable
afterwards) and removes the named variable from its own environment, so the program never sees it.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from clauz3.stdlib.errors import StdlibError

__all__ = ["ADDRESS", "SECURITY", "Credentials", "Settings", "SmtpConfigError", "load", "load_settings", "password_path", "password_variable",
           "save_password", "save_settings", "settings_path"]

SECURITY = ("starttls", "tls")
_HOST = re.compile(r"^[A-Za-z0-9]([A-Za-z0-9.-]{0,252})$")
_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,127}$")
ADDRESS = re.compile(r"^[^@\s<>,;\"'()\\]{1,64}@[A-Za-z0-9]([A-Za-z0-9.-]{0,252})$")


class SmtpConfigError(StdlibError):
    """Missing or invalid SMTP settings; the message is one line naming what to fix."""


@dataclass(frozen=True)
class Settings:
    host: str
    port: int
    security: str  # "starttls" (submission, usually 587) or "tls" (implicit TLS, usually 465)
    username: str
    sender: str
    password_env: str | None = None  # else the password file in the data dir
    dry_run: bool = False
    ca_file: str | None = None  # extra CA bundle (a self-signed test server); else the system's

    def check(self) -> Settings:
        if not _HOST.match(self.host):
            raise SmtpConfigError(f"smtp host {self.host!r} is not a host name or address")
        if not 1 <= self.port <= 65535:
            raise SmtpConfigError(f"smtp port {self.port} is not between 1 and 65535")
        if self.security not in SECURITY:
            raise SmtpConfigError(f"smtp security {self.security!r} must be one of {', '.join(SECURITY)}")
        if not ADDRESS.match(self.sender):
            raise SmtpConfigError(f"smtp sender {self.sender!r} is not a plain email address")
        if not self.username or any(c in self.username for c in "\r\n\x00"):
            raise SmtpConfigError("smtp user must be non-empty and on one line")
        if self.password_env is not None and not _ENV_NAME.match(self.password_env):
            raise SmtpConfigError(f"smtp password variable {self.password_env!r} is not an environment variable name")
        if self.ca_file is not None and not os.path.isabs(self.ca_file):
            raise SmtpConfigError(f"smtp CA file {self.ca_file!r} must be an absolute path")
        return self


@dataclass(frozen=True)
class Credentials:
    """What the sender needs at run time, loaded before the sandbox applies."""

    settings: Settings
    password: str | None  # None only in dry-run mode
    ca_data: str | None


def settings_path(data: Path) -> Path:
    return data / "smtp" / "settings.json"


def password_path(data: Path) -> Path:
    return data / "smtp" / "password"


def load_settings(data: Path) -> Settings | None:
    """The saved settings, or None when SMTP was never configured."""
    path = settings_path(data)
    if not os.path.lexists(path):
        return None
    from clauz3.storage.secretfiles import InsecureFileError, read_secret

    try:
        doc = json.loads(read_secret(path).decode("utf-8"))
    except InsecureFileError as exc:
        raise SmtpConfigError(str(exc)) from None
    except (OSError, ValueError) as exc:
        raise SmtpConfigError(f"cannot read {path}: {exc}; run clauz3 config smtp again") from None
    if not isinstance(doc, dict) or doc.get("schema_version") != 1:
        raise SmtpConfigError(f"{path} is not an SMTP settings file; run clauz3 config smtp again")
    fields: dict[str, Any] = {k: doc.get(k) for k in Settings.__dataclass_fields__ if k in doc}
    try:
        return Settings(**fields).check()
    except TypeError:
        raise SmtpConfigError(f"{path} lacks a field; run clauz3 config smtp again") from None


def save_settings(data: Path, settings: Settings) -> Path:
    from clauz3.storage.atomic import write_atomic

    settings.check()
    path = settings_path(data)
    _private(path.parent)
    doc = {"schema_version": 1, **asdict(settings)}
    write_atomic(path, (json.dumps(doc, indent=2) + "\n").encode("utf-8"), mode=0o600)
    return path


def save_password(data: Path, password: str) -> Path:
    from clauz3.storage.atomic import write_atomic

    if not password or "\n" in password or "\r" in password:
        raise SmtpConfigError("the SMTP password must be one non-empty line")
    path = password_path(data)
    _private(path.parent)
    write_atomic(path, password.encode("utf-8"), mode=0o600)
    return path


def _private(directory: Path) -> None:
    from clauz3.storage.secretfiles import InsecureFileError, ensure_private_dir

    try:
        ensure_private_dir(directory)
    except InsecureFileError as exc:
        raise SmtpConfigError(str(exc)) from None


def password_variable(data: Path) -> str | None:
    """The environment variable the settings name for the password, or None (never raises)."""
    try:
        settings = load_settings(data)
    except SmtpConfigError:
        return None
    return settings.password_env if settings is not None else None


def load(data: Path, environ: dict[str, str] | os._Environ[str] | None = None) -> Credentials:
    """Settings, password and CA bundle; removes the named password variable from ``environ``."""
    settings = load_settings(data)
    if settings is None:
        raise SmtpConfigError("SMTP is not configured; run clauz3 config smtp --help")
    env = os.environ if environ is None else environ
    password: str | None = None
    if settings.password_env is not None:
        password = env.pop(settings.password_env, None) or None
        if password is None and not settings.dry_run:
            raise SmtpConfigError(f"the environment variable {settings.password_env} (named by the SMTP settings) is not set")
    else:
        path = password_path(data)
        if os.path.lexists(path):
            from clauz3.storage.secretfiles import InsecureFileError, read_secret

            try:
                password = read_secret(path).decode("utf-8").strip() or None
            except InsecureFileError as exc:
                raise SmtpConfigError(str(exc)) from None
            except (OSError, UnicodeDecodeError) as exc:
                raise SmtpConfigError(f"cannot read {path}: {exc}") from None
        if password is None and not settings.dry_run:
            raise SmtpConfigError("no SMTP password saved; run clauz3 config smtp --password-stdin")
    ca_data = None
    if settings.ca_file is not None:
        try:
            ca_data = Path(settings.ca_file).read_text("ascii")
        except (OSError, UnicodeDecodeError) as exc:
            raise SmtpConfigError(f"cannot read the SMTP CA file {settings.ca_file}: {exc}") from None
    return Credentials(settings, password, ca_data)
