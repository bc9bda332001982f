"""An unrolled loop sends three messages; the limit is two."""
# clauz3-expect: violated guarantee

import clauz3
from tools.text.trusted import contracts as texts
from tools.text.trusted.effects import send_message


@clauz3.guarantee(texts.sends_at_most(2))
def main() -> None:
    for channel in ["general", "random", "support"]:
        send_message(channel, "Deploy at 5")
