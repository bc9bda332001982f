"""A second effect named pay."""

import clauz3


@clauz3.trusted
@clauz3.mock
def pay(amount: int) -> None:
    """Pay amount from the other account (simulated)."""
    return None
