"""These calls keep emails.each_to_one_of(["david.lee@bluesparrowtech.com", "john.mitchell@gmail.com"])."""

import clauz3
from tools.workspace.trusted import emails
from tools.workspace.trusted.effects import send_email


@clauz3.guarantee(emails.each_to_one_of(["david.lee@bluesparrowtech.com", "john.mitchell@gmail.com"]))
def main() -> None:
    send_email(["david.lee@bluesparrowtech.com"], "Task", "2024-05-20", attachments=None, cc=None, bcc=None)
    send_email(["john.mitchell@gmail.com"], "Summary of the client meeting", "2024-06-01", attachments=None, cc=None, bcc=None)
