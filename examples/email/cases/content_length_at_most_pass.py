"""Short messages, including one built by concatenation."""

import clauz3
from tools.email.trusted import contracts as emails
from tools.email.trusted.effects import send_email


@clauz3.guarantee(emails.content_length_at_most(12))
def main() -> None:
    greeting = "Hi " + "Bob"
    send_email("bob@example.com", greeting)
    send_email("ann@example.com", "Lunch at 12?")
