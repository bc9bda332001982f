"""A 13-character message breaks a limit of 12."""
# clauz3-expect: violated guarantee

import clauz3
from tools.email.trusted import contracts as emails
from tools.email.trusted.effects import send_email


@clauz3.guarantee(emails.content_length_at_most(12))
def main() -> None:
    send_email("bob@example.com", "Lunch at noon")
