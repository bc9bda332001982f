"""The listed file, also spelled with ./."""

from tools.smtp.trusted import contracts as mail
from tools.smtp.trusted.effects import send_email_with_attachment

import clauz3


@clauz3.guarantee(mail.only_attach_files(["reports/week.pdf"]))
def main() -> None:
    send_email_with_attachment("bob@example.com", "Hi", "Hello", "reports/week.pdf")
    send_email_with_attachment("ann@example.com", "Hi", "Hello", "./reports/week.pdf")
