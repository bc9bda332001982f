"""Every email goes to a listed address."""

import clauz3
from tools.email.trusted import contracts as emails
from tools.email.trusted.effects import send_email


@clauz3.guarantee(emails.only(["bob@example.com", "ann@example.com"]))
def main() -> None:
    send_email("bob@example.com", "hi")
    send_email("ann@example.com", "hi")
