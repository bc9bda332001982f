"""An email to another address breaks only."""
# clauz3-expect: violated guarantee

import clauz3
from tools.travel.trusted import emails
from tools.travel.trusted.effects import send_email


@clauz3.guarantee(emails.only(["janeLong@google.com"]))
def main() -> None:
    send_email(["jay@google.com"], "Info", "x", attachments=None, cc=None, bcc=None)
