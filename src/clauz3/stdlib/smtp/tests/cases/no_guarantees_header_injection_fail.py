"""A line break in the subject would inject a header."""
# clauz3-expect: violated precondition

from tools.smtp.trusted import contracts as mail
from tools.smtp.trusted.effects import send_email

import clauz3


@clauz3.guarantee(mail.no_guarantees())
def main() -> None:
    send_email("bob@example.com", "Hi\nBcc: eve@evil.example", "Hello")
