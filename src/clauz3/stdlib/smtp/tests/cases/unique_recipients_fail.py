"""Bob twice, once with an attachment."""
# clauz3-expect: violated guarantee

from tools.smtp.trusted import contracts as mail
from tools.smtp.trusted.effects import send_email, send_email_with_attachment

import clauz3


@clauz3.guarantee(mail.unique_recipients())
def main() -> None:
    send_email("bob@example.com", "Hi", "Hello")
    send_email_with_attachment("bob@example.com", "Report", "Attached", "report.txt")
