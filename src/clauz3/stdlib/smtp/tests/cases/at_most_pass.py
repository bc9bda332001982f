"""Two messages within at_most(2)."""

from tools.smtp.trusted import contracts as mail
from tools.smtp.trusted.effects import send_email, send_email_with_attachment

import clauz3


@clauz3.guarantee(mail.at_most(2))
def main() -> None:
    send_email("bob@example.com", "Hi", "Hello")
    send_email_with_attachment("ann@example.com", "Report", "Attached", "report.txt")
