"""The message in a never-taken branch does not count."""

import clauz3
from tools.text.trusted import contracts as texts
from tools.text.trusted.effects import send_message


@clauz3.guarantee(texts.sends_at_most(1))
def main() -> None:
    urgent = False
    send_message("general", "Status: green")
    if urgent:
        send_message("general", "Status: red")
