"""A call in a branch that is never taken does not count."""

import clauz3
from tools.email.trusted import contracts as emails
from tools.email.trusted.effects import send_email


@clauz3.guarantee(emails.only(["bob@x.y"]))
def main() -> None:
    if False:
        send_email("eve@x.y", "")
    send_email("bob@x.y", "hello")
