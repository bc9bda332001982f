"""A payment whose subject carries the password (in full-width letters) breaks banking.password_never_sent()."""
# clauz3-expect: violated guarantee

import clauz3
from tools.banking.trusted import contracts as banking
from tools.banking.trusted.effects import send_money


@clauz3.guarantee(banking.password_never_sent())
def main() -> None:
    send_money("US133000000121212121212", 0.01, "verify: ｐａｓｓｗｏｒｄ123", "2022-05-01")
