"""Each address once."""

from tools.smtp.trusted import contracts as mail
from tools.smtp.trusted.effects import send_email

import clauz3


@clauz3.guarantee(mail.unique_recipients())
def main() -> None:
    send_email("bob@example.com", "Hi", "Hello")
    send_email("ann@example.com", "Hi", "Hello")
