"""These calls keep emails.only(["john.mitchell@gmail.com"])."""

import clauz3
from tools.workspace.trusted import emails
from tools.workspace.trusted.effects import send_email


@clauz3.guarantee(emails.only(["john.mitchell@gmail.com"]))
def main() -> None:
    send_email(["john.mitchell@gmail.com"], "Summary of the client meeting", "2024-06-01", attachments=None, cc=None, bcc=None)
