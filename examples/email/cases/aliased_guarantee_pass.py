"""`from clauz3 import guarantee as g` and a helper imported by name under another name."""

from clauz3 import guarantee as g
from tools.email.trusted.contracts import at_most as at_most_emails
from tools.email.trusted.effects import send_email


@g(at_most_emails(1))
def main() -> None:
    send_email("bob@example.com", "hi")
