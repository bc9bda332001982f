"""A program that decides not to send anything."""

import clauz3
from tools.email.trusted import contracts as emails
from tools.email.trusted.effects import send_email


@clauz3.guarantee(emails.none())
def main() -> None:
    ready = False
    if ready:
        send_email("bob@example.com", "hi")
