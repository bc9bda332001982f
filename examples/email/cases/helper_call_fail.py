"""A helper that sends twice breaks the limit even though main calls it once."""
# clauz3-expect: violated guarantee

import clauz3
from tools.email.trusted import contracts as emails
from tools.email.trusted.effects import send_email


def notify_twice(addr: str) -> None:
    send_email(addr, "first")
    send_email(addr, "reminder")


@clauz3.guarantee(emails.at_most(1))
def main() -> None:
    notify_twice("bob@example.com")
