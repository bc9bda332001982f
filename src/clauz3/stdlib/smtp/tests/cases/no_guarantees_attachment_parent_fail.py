"""An attachment path leaving the project is refused."""
# clauz3-expect: violated precondition

from tools.smtp.trusted import contracts as mail
from tools.smtp.trusted.effects import send_email_with_attachment

import clauz3


@clauz3.guarantee(mail.no_guarantees())
def main() -> None:
    send_email_with_attachment("bob@example.com", "Hi", "Hello", "../secret.txt")
