"""Bob getting "y" breaks bob_gets_x()."""
# clauz3-expect: violated guarantee

import clauz3
from tools.email.trusted import contracts as emails
from tools.email.trusted.effects import send_email


@clauz3.guarantee(emails.bob_gets_x())
def main() -> None:
    send_email("ann@example.com", "x")
    send_email("bob@example.com", "y")
