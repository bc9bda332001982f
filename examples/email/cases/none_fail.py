"""Any email breaks none()."""
# clauz3-expect: violated guarantee

import clauz3
from tools.email.trusted import contracts as emails
from tools.email.trusted.effects import send_email


@clauz3.guarantee(emails.none())
def main() -> None:
    send_email("bob@example.com", "hi")
