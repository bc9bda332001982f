""""ok" is shorter than 5 characters."""
# clauz3-expect: violated guarantee

import clauz3
from tools.text.trusted import contracts as texts
from tools.text.trusted.effects import send_message


@clauz3.guarantee(texts.length_at_least(5))
def main() -> None:
    send_message("general", "Hello")
    send_message("general", "ok")
