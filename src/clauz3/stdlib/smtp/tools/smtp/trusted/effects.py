"""The smtp effects: one real email per call, from the sender set with ``clauz3 config smtp``.

The server, sender and password come from the person's settings, never from the program. A
recipient is one plain address (no display name, list or line break), so a guarantee about
``to`` is a guarantee about who receives the message.
"""

from tools.smtp.trusted.events import Attached, Message

import clauz3
from clauz3.events import performs
from clauz3.paths import has_no_parent_segments
from clauz3.stdlib import smtpsend

# Issue 19: these effects talk to servers, so a run that calls one keeps the network.
CLAUZ3_NETWORK = True


def plain_address(to: str) -> bool:
    """One address local@domain: exactly one "@", no space, comma, semicolon, angle bracket, quote or line break."""
    at = to.find("@")
    if at < 1 or to.find("@", at + 1) != -1 or to.endswith("@") or len(to) > 254:
        return False
    if " " in to or "\t" in to or "\r" in to or "\n" in to or "," in to or ";" in to or "\x00" in to:
        return False
    return not ("<" in to or ">" in to or "\"" in to or "'" in to or "(" in to or ")" in to or "\\" in to)


def one_line(text: str) -> bool:
    """A header value on one line, at most 200 characters."""
    return "\r" not in text and "\n" not in text and "\x00" not in text and len(text) <= 200


def attachment_path(p: str) -> bool:
    """A relative path of a file inside the project: no leading "/", empty, "." or ".." segment, no trailing "/"."""
    if len(p) == 0 or p.startswith("/") or p.endswith("/") or "\\" in p or "\x00" in p or "//" in p:
        return False
    if p == "." or "/./" in p or p.endswith("/."):
        return False
    return has_no_parent_segments(p)


@clauz3.trusted
@clauz3.requires(lambda to, subject, body: plain_address(to), message="to must be one plain email address")
@clauz3.requires(lambda to, subject, body: one_line(subject), message="subject must be one line of at most 200 characters")
@performs(lambda to, subject, body: [Message(to, subject, body)])
@clauz3.protected(to="recipient", subject="text", body="text")
def send_email(to: str, subject: str, body: str) -> None:
    """Send one email with the text body to the address to, from the configured sender."""
    smtpsend.send(to, subject, body)


@clauz3.trusted
@clauz3.requires(lambda to, subject, body, path: plain_address(to), message="to must be one plain email address")
@clauz3.requires(lambda to, subject, body, path: one_line(subject),
                 message="subject must be one line of at most 200 characters")
@clauz3.requires(lambda to, subject, body, path: attachment_path(path),
                 message="path must be a relative path of a file inside the project")
@performs(lambda to, subject, body, path: [Attached(to, subject, body, path)])
@clauz3.protected(to="recipient", subject="text", body="text", path="path")
def send_email_with_attachment(to: str, subject: str, body: str, path: str) -> None:
    """Send one email to the address to with the project file at path attached (at most 10 MiB)."""
    smtpsend.send(to, subject, body, path)
