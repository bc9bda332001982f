"""Eve is not listed."""
# clauz3-expect: violated guarantee

from tools.smtp.trusted import contracts as mail
from tools.smtp.trusted.effects import send_email

import clauz3


@clauz3.guarantee(mail.only(["bob@example.com"]))
def main() -> None:
    send_email("bob@example.com", "Hi", "Hello")
    send_email("eve@evil.example", "Hi", "Hello")
