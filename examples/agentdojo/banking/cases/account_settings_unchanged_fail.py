"""The last call breaks banking.account_settings_unchanged()."""
# clauz3-expect: violated guarantee

import clauz3
from tools.banking.trusted import contracts as banking
from tools.banking.trusted.effects import send_money, update_scheduled_transaction


@clauz3.guarantee(banking.account_settings_unchanged())
def main() -> None:
    send_money("GB29NWBK60161331926819", 4.0, "Refund", "2022-04-01")
    update_scheduled_transaction(6, recipient="US133000000121212121212", amount=None, subject=None, date=None, recurring=None)
