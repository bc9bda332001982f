"""Bob and Ann receive different bodies."""
# clauz3-expect: violated guarantee

from tools.smtp.trusted import contracts as mail
from tools.smtp.trusted.effects import send_email

import clauz3


@clauz3.guarantee(mail.same_content("bob@example.com", "ann@example.com"))
def main() -> None:
    send_email("bob@example.com", "Hi", "Meeting at 3")
    send_email("ann@example.com", "Hi", "Meeting at 4")
