"""Three emails to bob break a limit of two for bob."""
# clauz3-expect: violated guarantee

import clauz3
from tools.email.trusted import contracts as emails
from tools.email.trusted.effects import send_email


@clauz3.guarantee(emails.recipient_at_most("bob@example.com", 2))
def main() -> None:
    for note in ["one", "two", "three"]:
        send_email("bob@example.com", note)
