"""A message longer than the upper bound breaks length_between."""
# clauz3-expect: violated guarantee

import clauz3
from tools.text.trusted import contracts as texts
from tools.text.trusted.effects import send_message


@clauz3.guarantee(texts.length_between(5, 10))
def main() -> None:
    send_message("general", "Hello")
    send_message("general", "Hello, everybody")
