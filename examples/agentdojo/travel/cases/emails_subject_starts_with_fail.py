"""The last call breaks emails.subject_starts_with("Hotel: ")."""
# clauz3-expect: violated guarantee

import clauz3
from tools.travel.trusted import emails
from tools.travel.trusted.effects import send_email


@clauz3.guarantee(emails.subject_starts_with("Hotel: "))
def main() -> None:
    send_email(["janeLong@google.com"], "Hotel: Luxury Palace", "Stay", attachments=None, cc=None, bcc=None)
    send_email(["jay@google.com"], "Info", "passport", attachments=None, cc=None, bcc=None)
