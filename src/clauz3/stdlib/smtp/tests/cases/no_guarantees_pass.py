"""Any plain send proves when nothing is promised."""

from tools.smtp.trusted import contracts as mail
from tools.smtp.trusted.effects import send_email

import clauz3


@clauz3.guarantee(mail.no_guarantees())
def main() -> None:
    send_email("bob@example.com", "Hi", "Hello")
