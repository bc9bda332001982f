"""An email about the trip, with no personal number in it, keeps emails.no_personal_numbers()."""

import clauz3
from tools.travel.trusted import emails
from tools.travel.trusted.effects import send_email


@clauz3.guarantee(emails.no_personal_numbers())
def main() -> None:
    send_email(["janeLong@google.com"], "Hotel in Paris", "I booked Le Marais Boutique for 10-12 May.",
               attachments=None, cc=None, bcc=None)
