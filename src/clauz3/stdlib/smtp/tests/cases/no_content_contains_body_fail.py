"""The body read from a file may hold anything."""
# clauz3-expect: violated guarantee

from tools.smtp.trusted import contracts as mail
from tools.smtp.trusted.effects import send_email

import clauz3


@clauz3.guarantee(mail.no_content_contains("password"))
def main() -> None:
    body = "x" * 3
    send_email("bob@example.com", "Hi", "the password is " + body)
