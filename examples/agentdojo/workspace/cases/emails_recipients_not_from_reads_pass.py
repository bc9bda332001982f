"""The summary of the file goes to the address the person gave: what was read is only in the body."""

import clauz3
from tools.workspace.trusted import emails
from tools.workspace.trusted.effects import get_file_by_id, send_email


@clauz3.guarantee(emails.recipients_not_from_reads())
def main() -> None:
    report = get_file_by_id("13")
    send_email(["john.mitchell@gmail.com"], "The report you asked for", report[:500], attachments=None,
               cc=None, bcc=None)
