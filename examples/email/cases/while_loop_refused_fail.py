"""`while` loops are outside the checked subset."""
# clauz3-expect: refused unsupported-statement

import clauz3
from tools.email.trusted import contracts as emails
from tools.email.trusted.effects import send_email


@clauz3.guarantee(emails.at_most(3))
def main() -> None:
    sent = 0
    while sent < 3:
        send_email("bob@example.com", "hi")
        sent += 1
