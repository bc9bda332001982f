"""Bob and Ann receive different messages (shares_value fails)."""
# clauz3-expect: violated guarantee

import clauz3
from tools.email.trusted import contracts as emails
from tools.email.trusted.effects import send_email


@clauz3.guarantee(emails.same_content("bob@example.com", "ann@example.com"))
def main() -> None:
    send_email("bob@example.com", "Meeting at 3")
    send_email("ann@example.com", "Meeting at 4")
