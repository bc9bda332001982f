"""Nothing bounds the balance from above, so the assertion can fail."""
# clauz3-expect: violated assertion

import clauz3
from tools.bank.trusted import contracts as bank
from tools.bank.trusted.effects import balance


@clauz3.guarantee(bank.no_guarantees())
def main() -> None:
    owed = balance("card")
    assert owed < 1000
