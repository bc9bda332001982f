"""Plain messages only."""

from tools.smtp.trusted import contracts as mail
from tools.smtp.trusted.effects import send_email

import clauz3


@clauz3.guarantee(mail.no_attachments())
def main() -> None:
    send_email("bob@example.com", "Hi", "Hello")
