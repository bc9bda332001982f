"""One attachment within attachments_at_most(1)."""

from tools.smtp.trusted import contracts as mail
from tools.smtp.trusted.effects import send_email, send_email_with_attachment

import clauz3


@clauz3.guarantee(mail.attachments_at_most(1))
def main() -> None:
    send_email("bob@example.com", "Hi", "Hello")
    send_email("ann@example.com", "Hi", "Hello")
    send_email_with_attachment("bob@example.com", "Hi", "Hello", "report.txt")
