"""Nothing from secrets is attached."""

from tools.smtp.trusted import contracts as mail
from tools.smtp.trusted.effects import send_email_with_attachment

import clauz3


@clauz3.guarantee(mail.never_attach_under("secrets"))
def main() -> None:
    send_email_with_attachment("bob@example.com", "Hi", "Hello", "secrets2/a.txt")
    send_email_with_attachment("bob@example.com", "Hi", "Hello", "reports/a.pdf")
