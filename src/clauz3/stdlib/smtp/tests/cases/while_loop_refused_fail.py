"""A while loop is refused."""
# clauz3-expect: refused unsupported-statement

from tools.smtp.trusted import contracts as mail
from tools.smtp.trusted.effects import send_email

import clauz3


@clauz3.guarantee(mail.at_most(1))
def main() -> None:
    while True:
        send_email("bob@example.com", "Hi", "Hello")
