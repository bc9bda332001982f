"""no_guarantees() holds for any program whose calls are valid."""

import clauz3
from tools.email.trusted import contracts as emails
from tools.email.trusted.effects import send_email


@clauz3.guarantee(emails.no_guarantees())
def main() -> None:
    send_email("anyone@example.com", "anything")
