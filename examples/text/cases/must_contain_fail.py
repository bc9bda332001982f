"""The second message forgets the ticket."""
# clauz3-expect: violated guarantee

import clauz3
from tools.text.trusted import contracts as texts
from tools.text.trusted.effects import send_message


@clauz3.guarantee(texts.must_contain("TICKET-42"))
def main() -> None:
    send_message("support", "Working on TICKET-42")
    send_message("support", "Done")
