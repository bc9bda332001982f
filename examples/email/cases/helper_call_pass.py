"""Effects reached through a helper function of the program count like direct calls."""

import clauz3
from tools.email.trusted import contracts as emails
from tools.email.trusted.effects import send_email


def notify(addr: str, name: str) -> None:
    send_email(addr, "Hello " + name)


@clauz3.guarantee(emails.only(["bob@example.com", "ann@example.com"]))
@clauz3.guarantee(emails.at_most(2))
def main() -> None:
    notify("bob@example.com", "Bob")
    notify("ann@example.com", "Ann")
