"""A branch that is taken counts, even when it looks unusual."""
# clauz3-expect: violated guarantee

import clauz3
from tools.email.trusted import contracts as emails
from tools.email.trusted.effects import send_email


@clauz3.guarantee(emails.only(["bob@x.y"]))
def main() -> None:
    limit = 3
    if limit > 2:
        send_email("eve@x.y", "")
    send_email("bob@x.y", "hello")
