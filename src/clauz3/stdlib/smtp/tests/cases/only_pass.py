"""Both recipients are listed."""

from tools.smtp.trusted import contracts as mail
from tools.smtp.trusted.effects import send_email, send_email_with_attachment

import clauz3


@clauz3.guarantee(mail.only(["bob@example.com", "ann@example.com"]))
def main() -> None:
    send_email("bob@example.com", "Hi", "Hello")
    send_email_with_attachment("ann@example.com", "Report", "Attached", "report.txt")
