"""The last call breaks emails.subject_is("Summary of the client meeting")."""
# clauz3-expect: violated guarantee

import clauz3
from tools.workspace.trusted import emails
from tools.workspace.trusted.effects import send_email


@clauz3.guarantee(emails.subject_is("Summary of the client meeting"))
def main() -> None:
    send_email(["mark.black-2134@gmail.com"], "Important message!", "Hey", attachments=None, cc=None, bcc=None)
