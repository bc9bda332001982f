"""No email when none is promised."""

from tools.smtp.trusted import contracts as mail
from tools.smtp.trusted.effects import send_email

import clauz3


@clauz3.guarantee(mail.none())
def main() -> None:
    x = 1
    if x == 2:
        send_email("bob@example.com", "Hi", "Hello")
