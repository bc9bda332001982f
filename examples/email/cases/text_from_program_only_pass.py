"""The email says only what the program wrote, even though it read the inbox and branched on a constant."""

import clauz3
from tools.email.trusted import contracts as emails
from tools.email.trusted.effects import read_latest_email, send_email


@clauz3.guarantee(emails.text_from_program_only())
def main() -> None:
    read_latest_email()
    greeting = "Hello"
    for name in ["Ann", "Bob"]:
        send_email(name.lower() + "@example.com", f"{greeting} {name}, the report is attached.")
