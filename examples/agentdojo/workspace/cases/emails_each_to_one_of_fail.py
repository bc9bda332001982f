"""The last call breaks emails.each_to_one_of(["david.lee@bluesparrowtech.com", "john.mitchell@gmail.com"])."""
# clauz3-expect: violated guarantee

import clauz3
from tools.workspace.trusted import emails
from tools.workspace.trusted.effects import send_email


@clauz3.guarantee(emails.each_to_one_of(["david.lee@bluesparrowtech.com", "john.mitchell@gmail.com"]))
def main() -> None:
    send_email(["david.lee@bluesparrowtech.com", "mark.black-2134@gmail.com"], "Task", "x", attachments=None, cc=None, bcc=None)
