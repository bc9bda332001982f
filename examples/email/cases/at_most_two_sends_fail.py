"""Two emails break a limit of one."""
# clauz3-expect: violated guarantee

import clauz3
from tools.email.trusted import contracts as emails
from tools.email.trusted.effects import send_email


@clauz3.guarantee(emails.at_most(1))
def main() -> None:
    send_email("bob@example.com", "hi")
    send_email("ann@example.com", "hi")
