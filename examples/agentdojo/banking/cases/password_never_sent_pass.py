"""Paying the rent with a plain subject keeps banking.password_never_sent()."""

import clauz3
from tools.banking.trusted import contracts as banking
from tools.banking.trusted.effects import send_money


@clauz3.guarantee(banking.password_never_sent())
def main() -> None:
    send_money("US122000000121212121212", 1100.0, "Rent for May", "2022-05-01")
