"""Files under reports."""

from tools.smtp.trusted import contracts as mail
from tools.smtp.trusted.effects import send_email_with_attachment

import clauz3


@clauz3.guarantee(mail.only_attach_under("reports"))
def main() -> None:
    send_email_with_attachment("bob@example.com", "Hi", "Hello", "reports/a.pdf")
    send_email_with_attachment("bob@example.com", "Hi", "Hello", "./reports/2026/b.pdf")
