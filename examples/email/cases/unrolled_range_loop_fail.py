"""A range loop sends three emails, breaking a limit of two."""
# clauz3-expect: violated guarantee

import clauz3
from tools.email.trusted import contracts as emails
from tools.email.trusted.effects import send_email


@clauz3.guarantee(emails.at_most(2))
def main() -> None:
    for i in range(3):
        send_email("bob@example.com", "note")
