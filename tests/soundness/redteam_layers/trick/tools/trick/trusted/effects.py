"""Effects whose names shadow builtins (print, len, max) and a plain payment."""

import clauz3


@clauz3.trusted
@clauz3.mock
def pay(amount: int) -> None:
    """Pay amount (simulated)."""
    return None


@clauz3.trusted
@clauz3.mock
def print(text: str) -> None:
    """Print text on paper (simulated)."""
    return None


@clauz3.trusted
@clauz3.mock
@clauz3.ensures(lambda xs, result: result >= 0 and result <= 3)
def len(xs: list[int]) -> int:
    """Count xs at a cost (simulated)."""
    return 0


@clauz3.trusted
@clauz3.mock
@clauz3.ensures(lambda a, b, result: result >= 0 and result <= 3)
def max(a: int, b: int) -> int:
    """Pick at a cost (simulated)."""
    return 0
