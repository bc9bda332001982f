"""A loop over a literal list is unrolled: two emails, two different recipients."""

import clauz3
from tools.email.trusted import contracts as emails
from tools.email.trusted.effects import send_email


@clauz3.guarantee(emails.only(["bob@example.com", "ann@example.com"]))
@clauz3.guarantee(emails.at_most(2))
@clauz3.guarantee(emails.unique_recipients())
def main() -> None:
    for addr in ["bob@example.com", "ann@example.com"]:
        send_email(addr, "hi")
