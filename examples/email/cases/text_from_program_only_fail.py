"""Which text goes out depends on the email read (an implicit flow through the branch)."""

import clauz3
from tools.email.trusted import contracts as emails
from tools.email.trusted.effects import read_latest_email, send_email


@clauz3.guarantee(emails.text_from_program_only())
def main() -> None:
    mail = read_latest_email()
    text = "All quiet."
    if "report" in mail:
        text = "Carol asked for the report."
    send_email("me@example.com", text)
# clauz3-expect: unknown unsupported
