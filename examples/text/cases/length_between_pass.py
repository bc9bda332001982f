"""Messages built by concatenation stay exactly 13 characters."""

import clauz3
from tools.text.trusted import contracts as texts
from tools.text.trusted.effects import send_message


@clauz3.guarantee(texts.length_between(13, 13))
def main() -> None:
    for name in ["Ann", "Bob"]:
        send_message("general", "Welcome, " + name + "!")
