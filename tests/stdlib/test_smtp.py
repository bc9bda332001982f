"""stdlib:smtp against a real SMTP server (aiosmtpd on 127.0.0.1 with AUTH and STARTTLS or implicit TLS).

Programs go through the real path — ``clauz3 run``: prove, a signed receipt from the mock approval
service, the worker (sandboxed where Landlock is available) and the monitor — and the server's
mailbox is what is checked. The certificate is self-signed, made here with ``cryptography``.
"""

from __future__ import annotations

import datetime
import email
import email.policy
import ipaddress
import os
import shutil
import socket
import ssl
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP as SMTPServer
from aiosmtpd.smtp import AuthResult, Envelope, LoginPassword, Session
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

import clauz3
from clauz3.approvals.mock import MockApprovalService
from clauz3.stdlib.smtpconfig import Settings, save_password, save_settings

pytestmark = pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")
SMTP_LIB = Path(clauz3.__file__).parent / "stdlib" / "smtp" / "tools" / "smtp"
USER = "me@example.com"
PASSWORD = "correct horse battery staple"

PROMISED = '''import clauz3
from tools.smtp.trusted import contracts as mail
from tools.smtp.trusted.effects import send_email, send_email_with_attachment


@clauz3.guarantee(mail.only(["bob@example.com", "ann@example.com"]))
@clauz3.guarantee(mail.at_most(2))
@clauz3.guarantee(mail.only_attach_under("reports"))
def main() -> None:
    send_email("bob@example.com", "Hello", "Meeting at 3")
    send_email_with_attachment("ann@example.com", "Report", "Attached.", "reports/week.txt")
'''

# A misled agent adds a third recipient: the proof of only([...]) fails, nothing is sent.
REFUSED = PROMISED.replace('''    send_email("bob@example.com", "Hello", "Meeting at 3")
''', '''    send_email("bob@example.com", "Hello", "Meeting at 3")
    send_email("eve@evil.example", "Copy", "Meeting at 3")
''')


@dataclass
class Mailbox:
    messages: list[Envelope] = field(default_factory=list)
    logins: list[tuple[str, str]] = field(default_factory=list)

    async def handle_DATA(self, server: SMTPServer, session: Session, envelope: Envelope) -> str:
        self.messages.append(envelope)
        return "250 OK"

    def authenticate(self, server: SMTPServer, session: Session, envelope: Envelope, mechanism: str,
                     auth_data: Any) -> AuthResult:
        if not isinstance(auth_data, LoginPassword):
            return AuthResult(success=False, handled=False)
        login, password = auth_data.login.decode(), auth_data.password.decode()
        self.logins.append((login, password))
        # handled=False: the server answers 235 or 535 itself.
        return AuthResult(success=login == USER and password == PASSWORD, handled=False)


@dataclass
class Server:
    mailbox: Mailbox
    port: int
    ca_file: Path


def _certificate(directory: Path) -> tuple[Path, Path]:
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "clauz3 test SMTP")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(minutes=5))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), True)
            .sign(key, hashes.SHA256()))
    cert_path, key_path = directory / "server.pem", directory / "server.key"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_path, key_path


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(params=["starttls", "tls"])
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    certs = tmp_path / "certs"
    certs.mkdir()
    cert, key = _certificate(certs)
    tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    tls.load_cert_chain(cert, key)
    box = Mailbox()
    port = _free_port()
    if request.param == "starttls":
        ctl = Controller(box, hostname="127.0.0.1", port=port, tls_context=tls, require_starttls=True,
                         auth_required=True, auth_require_tls=True, authenticator=box.authenticate)
    else:
        # The whole connection is TLS; aiosmtpd only counts STARTTLS as TLS for auth_require_tls.
        ctl = Controller(box, hostname="127.0.0.1", port=port, ssl_context=tls, auth_required=True,
                         auth_require_tls=False, authenticator=box.authenticate)
    ctl.start()
    try:
        yield Server(box, port, cert)
    finally:
        ctl.stop()


def _security(server: Server, request: pytest.FixtureRequest) -> str:
    return str(request.node.callspec.params["server"])


@pytest.fixture
def data(tmp_path: Path) -> Path:
    home = tmp_path / "data"
    home.mkdir(mode=0o700)
    return home


@pytest.fixture
def project(tmp_path: Path) -> Path:
    proj = tmp_path / "proj"
    shutil.copytree(SMTP_LIB, proj / "tools" / "smtp", ignore=shutil.ignore_patterns("__pycache__"))
    (proj / "reports").mkdir()
    (proj / "reports" / "week.txt").write_text("42 widgets\n")
    (proj / "main.py").write_text(PROMISED)
    (proj / "refused.py").write_text(REFUSED)
    return proj


def configure(data: Path, server: Server, security: str, *, password: str = PASSWORD,
              password_env: str | None = None, dry_run: bool = False) -> None:
    save_settings(data, Settings(host="127.0.0.1", port=server.port, security=security, username=USER,
                                 sender=USER, password_env=password_env, dry_run=dry_run,
                                 ca_file=str(server.ca_file)))
    if password_env is None:
        save_password(data, password)


def clauz3_run(project: Path, data: Path, svc: MockApprovalService, program: str,
               env: dict[str, str] | None = None,
               roots: tuple[str, ...] = ("tools/smtp/trusted",)) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith("CLAUZ3_")}
    base.update(CLAUZ3_HOME=str(data), CLAUZ3_PROOF_CACHE="0", CLAUZ3_APPROVAL_SERVICE=svc.url,
                CLAUZ3_APPROVAL_TOKEN=svc.token, CLAUZ3_APPROVAL_VERIFY_KEY=svc.verify_key.text)
    base.update(env or {})
    flags = [x for root in roots for x in ("--trusted-root", root)]
    return subprocess.run([sys.executable, "-m", "clauz3", "run", *flags, program],
                          cwd=project, env=base, capture_output=True, text=True, timeout=180)


def test_proved_approved_program_delivers_exactly_the_promised_messages(
        server: Server, request: pytest.FixtureRequest, project: Path, data: Path) -> None:
    configure(data, server, _security(server, request))
    with MockApprovalService(data, project) as svc:
        out = clauz3_run(project, data, svc, "main.py")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "executed: main" in out.stdout
    box = server.mailbox
    assert [(m.mail_from, m.rcpt_tos) for m in box.messages] == [
        (USER, ["bob@example.com"]), (USER, ["ann@example.com"])]
    first, second = (email.message_from_bytes(m.original_content or b"", policy=email.policy.default)
                     for m in box.messages)
    assert (first["Subject"], first["From"], first["To"]) == ("Hello", USER, "bob@example.com")
    assert first.get_content().strip() == "Meeting at 3"
    attachments = list(second.iter_attachments())
    assert [(a.get_filename(), a.get_content()) for a in attachments] == [("week.txt", "42 widgets\n")]
    assert box.logins == [(USER, PASSWORD), (USER, PASSWORD)]  # one login per message, never more
    assert PASSWORD not in out.stdout + out.stderr
    assert PASSWORD not in (data / "smtp" / "settings.json").read_text()


def test_refused_program_delivers_nothing(server: Server, request: pytest.FixtureRequest, project: Path,
                                          data: Path) -> None:
    configure(data, server, _security(server, request))
    with MockApprovalService(data, project) as svc:
        out = clauz3_run(project, data, svc, "refused.py")
        assert svc.requests == []  # not proved: approval is never asked
    assert out.returncode != 0
    assert "only" in out.stdout + out.stderr
    assert server.mailbox.messages == [] and server.mailbox.logins == []


def test_wrong_password_gives_one_error_line_and_no_retry(server: Server, request: pytest.FixtureRequest,
                                                         project: Path, data: Path) -> None:
    configure(data, server, _security(server, request), password="wrong password")
    with MockApprovalService(data, project) as svc:
        out = clauz3_run(project, data, svc, "main.py")
    assert out.returncode != 0
    lines = [x for x in (out.stdout + out.stderr).splitlines() if "refused the login" in x]
    assert len(lines) == 1, out.stdout + out.stderr
    assert f"127.0.0.1:{server.port} refused the login for {USER} (535)" in lines[0]
    assert "Traceback" not in out.stdout + out.stderr
    assert server.mailbox.logins == [(USER, "wrong password")]  # one attempt; the second send never ran
    assert server.mailbox.messages == []
    assert "wrong password" not in out.stdout + out.stderr


def test_password_from_named_variable_reaches_the_sender_only(server: Server, request: pytest.FixtureRequest,
                                                             project: Path, data: Path) -> None:
    configure(data, server, _security(server, request), password_env="MY_SMTP_PASSWORD")
    with MockApprovalService(data, project) as svc:
        out = clauz3_run(project, data, svc, "main.py", env={"MY_SMTP_PASSWORD": PASSWORD})
    assert out.returncode == 0, out.stdout + out.stderr
    assert len(server.mailbox.messages) == 2
    assert server.mailbox.logins == [(USER, PASSWORD), (USER, PASSWORD)]
    assert not (data / "smtp" / "password").exists()


def test_dry_run_connects_to_nothing(server: Server, request: pytest.FixtureRequest, project: Path,
                                     data: Path) -> None:
    configure(data, server, _security(server, request), dry_run=True)
    with MockApprovalService(data, project) as svc:
        out = clauz3_run(project, data, svc, "main.py")
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stderr.count("smtp dry run: not sent:") == 2, out.stderr
    assert "to ann@example.com, subject 'Report'" in out.stderr
    assert server.mailbox.messages == [] and server.mailbox.logins == []


def test_config_smtp_keeps_the_password_out_of_settings_and_output(tmp_path: Path, data: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAUZ3_")}
    env["CLAUZ3_HOME"] = str(data)

    def config(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "clauz3", "config", *args], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=60, input=stdin)

    first = config("smtp", "--host", "smtp.example.com", "--sender", USER, "--password-stdin", stdin=PASSWORD + "\n")
    assert first.returncode == 0, first.stderr
    settings, secret = data / "smtp" / "settings.json", data / "smtp" / "password"
    assert secret.read_text() == PASSWORD
    assert (settings.stat().st_mode & 0o777, secret.stat().st_mode & 0o777) == (0o600, 0o600)
    assert (data / "smtp").stat().st_mode & 0o777 == 0o700
    assert PASSWORD not in settings.read_text()
    shown = config("smtp", "--show")
    assert shown.stdout.startswith("smtp: starttls smtp.example.com:587 user me@example.com"), shown.stdout
    assert PASSWORD not in first.stdout + first.stderr + shown.stdout + shown.stderr
    bad = config("smtp", "--security", "tls", "--sender", "not an address")
    assert bad.returncode == 2 and bad.stderr.strip().count("\n") == 0
    assert "is not a plain email address" in bad.stderr
    loose = config("--host", "x")
    assert loose.returncode == 2 and "clauz3 config smtp" in loose.stderr


READS_ENV = '''import clauz3
from tools.env.trusted.effects import read_env
from tools.smtp.trusted import contracts as mail
from tools.smtp.trusted.effects import send_email


@clauz3.guarantee(mail.only(["bob@example.com"]))
def main() -> None:
    secret = read_env("MY_SMTP_PASSWORD")
    print("password characters seen:", len(secret))
    send_email("bob@example.com", "Hi", "[" + secret + "]")
'''


def test_program_cannot_read_the_password_variable(server: Server, request: pytest.FixtureRequest,
                                                   project: Path, data: Path) -> None:
    env_lib = Path(clauz3.__file__).parent / "stdlib" / "env" / "tools" / "env"
    shutil.copytree(env_lib, project / "tools" / "env", ignore=shutil.ignore_patterns("__pycache__"))
    (project / "reads_env.py").write_text(READS_ENV)
    configure(data, server, _security(server, request), password_env="MY_SMTP_PASSWORD")
    with MockApprovalService(data, project) as svc:
        out = clauz3_run(project, data, svc, "reads_env.py", env={"MY_SMTP_PASSWORD": PASSWORD},
                         roots=("tools/smtp/trusted", "tools/env/trusted"))
    assert out.returncode == 0, out.stdout + out.stderr
    assert "password characters seen: 0" in out.stdout
    [message] = server.mailbox.messages
    body = email.message_from_bytes(message.original_content or b"", policy=email.policy.default)
    assert body.get_content().strip() == "[]"
    assert server.mailbox.logins == [(USER, PASSWORD)]  # the sender still had it


@pytest.fixture
def confined(tmp_path: Path) -> Iterator[Path]:
    from clauz3.stdlib.runtime import clear_run_context, set_run_context

    root = tmp_path / "confined"
    root.mkdir()
    set_run_context(root)
    yield root
    clear_run_context()


def test_attachment_is_read_inside_the_project_only(confined: Path, tmp_path: Path) -> None:
    from clauz3.stdlib.safefs import FsError
    from clauz3.stdlib.smtpsend import compose

    (tmp_path / "outside.txt").write_text("secret")
    (confined / "link.txt").symlink_to(tmp_path / "outside.txt")
    (confined / "ok.txt").write_text("fine")
    msg = compose(USER, "bob@example.com", "Hi", "body", "ok.txt")
    assert [a.get_content() for a in msg.iter_attachments()] == ["fine"]
    with pytest.raises(FsError):
        compose(USER, "bob@example.com", "Hi", "body", "link.txt")
    with pytest.raises(FsError):
        compose(USER, "bob@example.com", "Hi", "body", "../outside.txt")


def test_sender_refuses_what_the_preconditions_refuse(tmp_path: Path) -> None:
    from clauz3.stdlib import smtpsend

    data = tmp_path / "d"
    data.mkdir(mode=0o700)
    save_settings(data, Settings(host="127.0.0.1", port=_free_port(), security="starttls", username=USER,
                                 sender=USER, dry_run=True))
    smtpsend.prepare(data)
    try:
        for bad in ("Bob <bob@example.com>", "bob@example.com, eve@evil.example", "bob@example.com\r\nBcc: e@x"):
            with pytest.raises(smtpsend.SmtpError, match="not one plain email address"):
                smtpsend.send(bad, "Hi", "body")
        with pytest.raises(smtpsend.SmtpError, match="refused message"):
            smtpsend.send("bob@example.com", "Hi\r\nBcc: eve@evil.example", "body")
    finally:
        smtpsend.clear()


def test_unconfigured_smtp_is_one_clear_error(tmp_path: Path) -> None:
    from clauz3.stdlib import smtpsend

    data = tmp_path / "d"
    data.mkdir(mode=0o700)
    smtpsend.preload(data, wanted=True)
    try:
        with pytest.raises(smtpsend.SmtpError, match=r"^SMTP is not configured; run clauz3 config smtp --help$"):
            smtpsend.send("bob@example.com", "Hi", "body")
    finally:
        smtpsend.clear()


def test_agent_environment_never_holds_the_password_variable(tmp_path: Path) -> None:
    from clauz3.sessions.agent.providers.launch import adapter_env

    data = tmp_path / "d"
    data.mkdir(mode=0o700)
    base = {"PATH": "/usr/bin", "MY_SMTP_PASSWORD": PASSWORD}
    assert adapter_env(base, data)["MY_SMTP_PASSWORD"] == PASSWORD  # not named by any settings yet
    save_settings(data, Settings(host="127.0.0.1", port=587, security="starttls", username=USER, sender=USER,
                                 password_env="MY_SMTP_PASSWORD"))
    for provider in (None, "claude", "codex", "opencode"):
        assert "MY_SMTP_PASSWORD" not in adapter_env(base, data, provider=provider)


def test_starttls_server_without_starttls_never_gets_the_password(tmp_path: Path, data: Path) -> None:
    from clauz3.stdlib import smtpsend

    box = Mailbox()
    port = _free_port()
    ctl = Controller(box, hostname="127.0.0.1", port=port, auth_require_tls=False, authenticator=box.authenticate)
    ctl.start()
    try:
        save_settings(data, Settings(host="127.0.0.1", port=port, security="starttls", username=USER, sender=USER))
        save_password(data, PASSWORD)
        smtpsend.prepare(data)
        with pytest.raises(smtpsend.SmtpError, match="does not offer STARTTLS; nothing was sent"):
            smtpsend.send("bob@example.com", "Hi", "body")
    finally:
        smtpsend.clear()
        ctl.stop()
    assert box.logins == [] and box.messages == []


def test_untrusted_certificate_stops_before_login(server: Server, request: pytest.FixtureRequest,
                                                  data: Path) -> None:
    from clauz3.stdlib import smtpsend

    save_settings(data, Settings(host="127.0.0.1", port=server.port, security=_security(server, request),
                                 username=USER, sender=USER))  # no ca_file: the self-signed cert is not trusted
    save_password(data, PASSWORD)
    smtpsend.prepare(data)
    try:
        with pytest.raises(smtpsend.SmtpError, match=r"CERTIFICATE_VERIFY_FAILED|certificate verify failed"):
            smtpsend.send("bob@example.com", "Hi", "body")
    finally:
        smtpsend.clear()
    assert server.mailbox.logins == [] and server.mailbox.messages == []


def test_config_check_logs_in_once_and_sends_nothing(server: Server, request: pytest.FixtureRequest,
                                                     tmp_path: Path, data: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAUZ3_")}
    env["CLAUZ3_HOME"] = str(data)
    argv = [sys.executable, "-m", "clauz3", "config", "smtp", "--host", "127.0.0.1", "--port", str(server.port),
            "--security", _security(server, request), "--sender", USER, "--ca-file", str(server.ca_file),
            "--password-stdin", "--check"]
    good = subprocess.run(argv, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60,
                          input=PASSWORD + "\n")
    assert good.returncode == 0, good.stderr
    assert good.stdout.splitlines()[-1] == f"logged in to 127.0.0.1:{server.port} as {USER}; nothing was sent"
    bad = subprocess.run(argv, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60, input="nope\n")
    assert bad.returncode == 2
    assert bad.stderr.strip() == (f"error: SMTP server 127.0.0.1:{server.port} refused the login for {USER} (535); "
                                  "check the password with clauz3 config smtp; nothing was sent")
    assert server.mailbox.logins == [(USER, PASSWORD), (USER, "nope")] and server.mailbox.messages == []
