"""Without a bound on the amount, its text has no bound either."""
# clauz3-expect: violated guarantee

import clauz3
from tools.text.trusted import contracts as texts
from tools.text.trusted.effects import send_message


@clauz3.guarantee(texts.length_at_most(30))
def main(amount: float) -> None:
    if amount >= 0:
        send_message("billing", f"You paid {amount:.2f} EUR")
