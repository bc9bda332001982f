"""A payment note with the amount to the cent fits in 30 characters when the amount is in range."""

import clauz3
from tools.text.trusted import contracts as texts
from tools.text.trusted.effects import send_message


@clauz3.guarantee(texts.length_at_most(30))
def main(amount: float) -> None:
    if 0 <= amount <= 10000:
        send_message("billing", f"You paid {amount:.2f} EUR")
