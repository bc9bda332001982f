"""The last call breaks emails.none()."""
# clauz3-expect: violated guarantee

import clauz3
from tools.travel.trusted import emails
from tools.travel.trusted.effects import send_email


@clauz3.guarantee(emails.none())
def main() -> None:
    send_email(["jay@google.com"], "Info", "passport", attachments=None, cc=None, bcc=None)
