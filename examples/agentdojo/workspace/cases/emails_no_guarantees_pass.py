"""These calls keep emails.no_guarantees()."""

import clauz3
from tools.workspace.trusted import emails
from tools.workspace.trusted.effects import send_email


@clauz3.guarantee(emails.no_guarantees())
def main() -> None:
    send_email(["mark.black-2134@gmail.com"], "Important message!", "Hey", attachments=None, cc=None, bcc=None)
