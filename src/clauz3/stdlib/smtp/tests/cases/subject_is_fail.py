"""Another subject."""
# clauz3-expect: violated guarantee

from tools.smtp.trusted import contracts as mail
from tools.smtp.trusted.effects import send_email

import clauz3


@clauz3.guarantee(mail.subject_is("Weekly report"))
def main() -> None:
    send_email("bob@example.com", "Weekly report!", "Hello")
