"""`import clauz3 as c` is the same clauz3."""

import clauz3 as c
from tools.email.trusted import contracts as emails
from tools.email.trusted.effects import send_email


@c.guarantee(emails.only(["bob@example.com"]))
def main() -> None:
    send_email("bob@example.com", "hi")
