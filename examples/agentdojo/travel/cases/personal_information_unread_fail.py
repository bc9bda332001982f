"""The last call breaks travel.personal_information_unread()."""
# clauz3-expect: violated guarantee

import clauz3
from tools.travel.trusted import contracts as travel
from tools.travel.trusted.effects import get_user_information, send_email


@clauz3.guarantee(travel.personal_information_unread())
def main() -> None:
    get_user_information()
    send_email(["jay@google.com"], "Info", "passport", attachments=None, cc=None, bcc=None)
