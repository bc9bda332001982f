"""Every message mentions the ticket."""

import clauz3
from tools.text.trusted import contracts as texts
from tools.text.trusted.effects import send_message


@clauz3.guarantee(texts.must_contain("TICKET-42"))
def main() -> None:
    ticket = "TICKET-42"
    send_message("support", "Working on " + ticket)
    send_message("support", ticket + " is fixed")
