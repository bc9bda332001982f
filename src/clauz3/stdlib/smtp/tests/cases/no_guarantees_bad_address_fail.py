"""A display name with angle brackets is not one plain address."""
# clauz3-expect: violated precondition

from tools.smtp.trusted import contracts as mail
from tools.smtp.trusted.effects import send_email

import clauz3


@clauz3.guarantee(mail.no_guarantees())
def main() -> None:
    send_email("Bob <bob@example.com>", "Hi", "Hello")
