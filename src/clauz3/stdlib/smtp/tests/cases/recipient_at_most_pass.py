"""Bob once, Ann twice."""

from tools.smtp.trusted import contracts as mail
from tools.smtp.trusted.effects import send_email

import clauz3


@clauz3.guarantee(mail.recipient_at_most("bob@example.com", 1))
def main() -> None:
    send_email("bob@example.com", "Hi", "Hello")
    send_email("ann@example.com", "Hi", "1")
    send_email("ann@example.com", "Hi", "2")
