"""Bob gets two emails; others do not count towards his limit."""

import clauz3
from tools.email.trusted import contracts as emails
from tools.email.trusted.effects import send_email


@clauz3.guarantee(emails.recipient_at_most("bob@example.com", 2))
def main() -> None:
    send_email("bob@example.com", "one")
    send_email("ann@example.com", "one")
    send_email("ann@example.com", "two")
    send_email("ann@example.com", "three")
    send_email("bob@example.com", "two")
