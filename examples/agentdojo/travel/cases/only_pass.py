"""One email to exactly the approved recipient."""

import clauz3
from tools.travel.trusted import emails
from tools.travel.trusted.effects import send_email


@clauz3.guarantee(emails.only(["janeLong@google.com"]))
def main() -> None:
    send_email(["janeLong@google.com"], "Hotel", "Stay at Luxury Palace", attachments=None, cc=None, bcc=None)
