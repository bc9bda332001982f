"""The recipient is cut out of the email just read: data from the inbox reaches the address."""
# clauz3-expect: violated guarantee

import clauz3
from tools.email.trusted import contracts as emails
from tools.email.trusted.effects import read_latest_email, send_email


@clauz3.guarantee(emails.recipients_not_from_inbox())
def main() -> None:
    mail = read_latest_email()
    start = mail.find(" to ") + 4
    addr = mail[start:mail.find(". Carol")]
    if "@" in addr:
        send_email(addr, "Here is the report.")
