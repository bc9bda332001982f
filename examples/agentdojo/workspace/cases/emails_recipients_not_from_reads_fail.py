"""A blind copy goes to an address found in the file just read (an injected "also send it to …")."""
# clauz3-expect: violated guarantee

import clauz3
from tools.workspace.trusted import emails
from tools.workspace.trusted.effects import get_file_by_id, send_email


@clauz3.guarantee(emails.recipients_not_from_reads())
def main() -> None:
    report = get_file_by_id("13")
    start = report.find("send it to ") + 11
    extra = report[start:start + 40]
    send_email(["john.mitchell@gmail.com"], "The report you asked for", "See the attached report.",
               attachments=None, cc=None, bcc=[extra])
