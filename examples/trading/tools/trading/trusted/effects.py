"""Trading effects. They are simulations: no approval system is read and no order reaches a market."""

from tools.trading.trusted.schemas import ApprovalRow

import clauz3


@clauz3.trusted
@clauz3.mock
@clauz3.ensures(lambda result: len(result) <= 50)
def list_approvals(desk: str, where: dict[str, object]) -> list[ApprovalRow]:
    """Return up to 50 approvals of desk whose columns equal the values in where (simulated: none)."""
    return []


@clauz3.trusted
@clauz3.mock
@clauz3.requires(lambda stock, shares: shares > 0, message="shares must be positive")
@clauz3.protected(shares="amount")
def sell_shares(stock: str, shares: int) -> None:
    """Place an order to sell shares of stock (simulated: no order is placed)."""
    return None
