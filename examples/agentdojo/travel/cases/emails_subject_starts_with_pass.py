"""These calls keep emails.subject_starts_with("Hotel: ")."""

import clauz3
from tools.travel.trusted import emails
from tools.travel.trusted.effects import send_email


@clauz3.guarantee(emails.subject_starts_with("Hotel: "))
def main(name: str) -> None:
    send_email(["janeLong@google.com"], "Hotel: " + name, "Stay", attachments=None, cc=None, bcc=None)
