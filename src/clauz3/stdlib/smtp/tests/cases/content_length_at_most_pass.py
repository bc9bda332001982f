"""A five-character body."""

from tools.smtp.trusted import contracts as mail
from tools.smtp.trusted.effects import send_email

import clauz3


@clauz3.guarantee(mail.content_length_at_most(5))
def main() -> None:
    send_email("bob@example.com", "A long subject is not the body", "Hello")
