"""Three messages break at_most(2)."""
# clauz3-expect: violated guarantee

from tools.smtp.trusted import contracts as mail
from tools.smtp.trusted.effects import send_email

import clauz3


@clauz3.guarantee(mail.at_most(2))
def main() -> None:
    for a in ["a@example.com", "b@example.com", "c@example.com"]:
        send_email(a, "Hi", "Hello")
