"""The last call breaks emails.at_most(1)."""
# clauz3-expect: violated guarantee

import clauz3
from tools.workspace.trusted import emails
from tools.workspace.trusted.effects import send_email


@clauz3.guarantee(emails.at_most(1))
def main() -> None:
    send_email(["john.mitchell@gmail.com"], "Summary of the client meeting", "2024-06-01", attachments=None, cc=None, bcc=None)
    send_email(["mark.black-2134@gmail.com"], "Important message!", "Hey", attachments=None, cc=None, bcc=None)
