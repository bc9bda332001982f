"""Only Ann gets the attachment; Bob gets a plain message."""

from tools.smtp.trusted import contracts as mail
from tools.smtp.trusted.effects import send_email, send_email_with_attachment

import clauz3


@clauz3.guarantee(mail.attach_only_for(["ann@example.com"]))
def main() -> None:
    send_email("bob@example.com", "Hi", "Hello")
    send_email_with_attachment("ann@example.com", "Report", "Attached", "report.txt")
