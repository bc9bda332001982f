"""A reply that quotes the email goes to an address the program names itself."""

import clauz3
from tools.email.trusted import contracts as emails
from tools.email.trusted.effects import read_latest_email, send_email


@clauz3.guarantee(emails.recipients_not_from_inbox())
def main() -> None:
    mail = read_latest_email()
    send_email("me@example.com", "Carol wrote: " + mail[:60])
