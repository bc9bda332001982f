"""A plain email with a Cc keeps emails.sets_only(["cc"])."""

import clauz3
from tools.workspace.trusted import emails
from tools.workspace.trusted.effects import send_email


@clauz3.guarantee(emails.sets_only(["cc"]))
def main() -> None:
    send_email(["emma.johnson@bluesparrowtech.com"], "Trip", "See you in Paris.", attachments=None,
               cc=["john.doe@bluesparrowtech.com"], bcc=None)
