"""An address without "@" breaks send_email's precondition, whatever the guarantees."""
# clauz3-expect: violated precondition

import clauz3
from tools.email.trusted import contracts as emails
from tools.email.trusted.effects import send_email


@clauz3.guarantee(emails.no_guarantees())
def main() -> None:
    send_email("bob", "x")
