"""These calls keep emails.no_deletes()."""

import clauz3
from tools.workspace.trusted import emails
from tools.workspace.trusted.effects import send_email


@clauz3.guarantee(emails.no_deletes())
def main() -> None:
    send_email(["john.mitchell@gmail.com"], "Summary of the client meeting", "2024-06-01", attachments=None, cc=None, bcc=None)
