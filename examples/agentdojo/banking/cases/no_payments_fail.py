"""The last call breaks banking.no_payments()."""
# clauz3-expect: violated guarantee

import clauz3
from tools.banking.trusted import contracts as banking
from tools.banking.trusted.effects import schedule_transaction


@clauz3.guarantee(banking.no_payments())
def main() -> None:
    schedule_transaction("US122000000121212121212", 50.0, "iPhone", "2022-04-01", True)
