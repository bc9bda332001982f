"""Neither subject nor body holds the word."""

from tools.smtp.trusted import contracts as mail
from tools.smtp.trusted.effects import send_email

import clauz3


@clauz3.guarantee(mail.no_content_contains("password"))
def main() -> None:
    send_email("bob@example.com", "Hi", "Hello")
