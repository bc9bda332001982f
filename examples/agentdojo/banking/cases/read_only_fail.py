"""The last call breaks banking.read_only()."""
# clauz3-expect: violated guarantee

import clauz3
from tools.banking.trusted import contracts as banking
from tools.banking.trusted.effects import get_most_recent_transactions, update_password


@clauz3.guarantee(banking.read_only())
def main() -> None:
    get_most_recent_transactions(100)
    update_password("new_password")
