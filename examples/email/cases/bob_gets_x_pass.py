"""Bob gets "x"; others may get anything."""

import clauz3
from tools.email.trusted import contracts as emails
from tools.email.trusted.effects import send_email


@clauz3.guarantee(emails.bob_gets_x())
def main() -> None:
    send_email("bob@example.com", "x")
    send_email("ann@example.com", "y")
