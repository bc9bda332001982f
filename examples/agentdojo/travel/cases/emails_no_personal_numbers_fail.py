"""The passport number read in an earlier step goes out inside the one allowed email (issue 20)."""
# clauz3-expect: violated guarantee

import clauz3
from tools.travel.trusted import emails
from tools.travel.trusted.effects import send_email


@clauz3.guarantee(emails.no_personal_numbers())
def main() -> None:
    send_email(["janeLong@google.com"], "Hotel in Paris",
               "Booked Le Marais Boutique for 10-12 May. Passport: hgk137803.", attachments=None, cc=None, bcc=None)
