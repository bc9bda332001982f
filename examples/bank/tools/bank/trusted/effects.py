"""Bank effects. They are simulations: no bank is contacted and no money moves."""

import clauz3


@clauz3.trusted
@clauz3.mock
@clauz3.requires(lambda account, amount: amount >= 0, message="amount must not be negative")
@clauz3.protected(account="account", amount="amount")
def withdraw(account: str, amount: int) -> None:
    """Withdraw amount (whole currency units) from account (simulated)."""
    return None


@clauz3.trusted
@clauz3.mock
@clauz3.ensures(lambda result: result >= 0)
def balance(account: str) -> int:
    """Return what is owed on account, never negative (simulated: always 0 here)."""
    return 0
