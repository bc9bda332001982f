"""`while` loops are outside the checked subset."""
# clauz3-expect: refused unsupported-statement

import clauz3
from tools.text.trusted import contracts as texts
from tools.text.trusted.effects import send_message


@clauz3.guarantee(texts.sends_at_most(3))
def main() -> None:
    left = 3
    while left > 0:
        send_message("general", "tick")
        left -= 1
