"""Two addresses in one recipient string are refused by the precondition."""
# clauz3-expect: violated precondition

from tools.smtp.trusted import contracts as mail
from tools.smtp.trusted.effects import send_email

import clauz3


@clauz3.guarantee(mail.no_guarantees())
def main() -> None:
    send_email("bob@example.com,eve@evil.example", "Hi", "Hello")
