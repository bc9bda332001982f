"""Every subject is the promised one."""

from tools.smtp.trusted import contracts as mail
from tools.smtp.trusted.effects import send_email, send_email_with_attachment

import clauz3


@clauz3.guarantee(mail.subject_is("Weekly report"))
def main() -> None:
    send_email("bob@example.com", "Weekly report", "Hello")
    send_email_with_attachment("ann@example.com", "Weekly report", "Attached", "report.txt")
