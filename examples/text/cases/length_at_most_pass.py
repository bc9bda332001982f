"""A short greeting fits in 19 characters."""

import clauz3
from tools.text.trusted import contracts as texts
from tools.text.trusted.effects import send_message


@clauz3.guarantee(texts.length_at_most(19))
def main() -> None:
    send_message("general", "Good morning, team!")
