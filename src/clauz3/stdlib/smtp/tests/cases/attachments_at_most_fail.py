"""Two attachments."""
# clauz3-expect: violated guarantee

from tools.smtp.trusted import contracts as mail
from tools.smtp.trusted.effects import send_email_with_attachment

import clauz3


@clauz3.guarantee(mail.attachments_at_most(1))
def main() -> None:
    send_email_with_attachment("bob@example.com", "Hi", "Hello", "a.txt")
    send_email_with_attachment("ann@example.com", "Hi", "Hello", "b.txt")
