"""The last call breaks emails.no_deletes()."""
# clauz3-expect: violated guarantee

import clauz3
from tools.workspace.trusted import emails
from tools.workspace.trusted.effects import delete_email, send_email


@clauz3.guarantee(emails.no_deletes())
def main() -> None:
    send_email(["mark.black-2134@gmail.com"], "Important message!", "Hey", attachments=None, cc=None, bcc=None)
    delete_email("34")
