"""The last call breaks emails.none()."""
# clauz3-expect: violated guarantee

import clauz3
from tools.workspace.trusted import emails
from tools.workspace.trusted.effects import send_email


@clauz3.guarantee(emails.none())
def main() -> None:
    send_email(["mark.black-2134@gmail.com"], "Important message!", "Hey", attachments=None, cc=None, bcc=None)
