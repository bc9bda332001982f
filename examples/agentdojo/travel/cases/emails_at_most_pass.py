"""These calls keep emails.at_most(1)."""

import clauz3
from tools.travel.trusted import emails
from tools.travel.trusted.effects import send_email


@clauz3.guarantee(emails.at_most(1))
def main() -> None:
    send_email(["janeLong@google.com"], "Hotel: Luxury Palace", "Stay", attachments=None, cc=None, bcc=None)
