"""These calls keep emails.only(["janeLong@google.com"])."""

import clauz3
from tools.travel.trusted import emails
from tools.travel.trusted.effects import send_email


@clauz3.guarantee(emails.only(["janeLong@google.com"]))
def main() -> None:
    send_email(["janeLong@google.com"], "Hotel: Luxury Palace", "Stay", attachments=None, cc=None, bcc=None)
