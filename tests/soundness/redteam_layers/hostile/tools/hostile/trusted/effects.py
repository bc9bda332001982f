"""Effects of the red-team layer. Bodies never run in the check: stubs record the calls."""

from tools.hostile.trusted.rows import Item

import clauz3
import clauz3.fluent
from clauz3.fluent import fluent

# Whether each alarm zone is armed; every zone starts disarmed.
Armed = fluent("hostile_armed", key=str, value=bool, initial=False)
# The level of each tank; every tank starts empty.
Level = fluent("hostile_level", key=str, value=int, initial=0)


@clauz3.trusted
@clauz3.mock
@clauz3.requires(lambda cents: cents >= 0, message="cents must not be negative")
def spend(cents: int) -> None:
    """Spend cents (simulated)."""
    return None


@clauz3.trusted
@clauz3.mock
def post(text: str) -> None:
    """Post text (simulated)."""
    return None


@clauz3.trusted
@clauz3.mock
@clauz3.fluent.effect(lambda zone: Armed.set(zone, True))
def arm(zone: str) -> None:
    """Arm zone (simulated)."""
    return None


@clauz3.trusted
@clauz3.mock
@clauz3.fluent.effect(lambda zone: Armed.set(zone, False))
def disarm(zone: str) -> None:
    """Disarm zone (simulated)."""
    return None


@clauz3.trusted
@clauz3.mock
@clauz3.fluent.effect(lambda tank, litres: Level.set(tank, litres))
def store(tank: str, litres: int) -> None:
    """Set the level of tank to litres (simulated)."""
    return None


@clauz3.trusted
@clauz3.mock
@clauz3.ensures(lambda result: result >= 0.0)
def quote() -> float:
    """A price that is not negative: infinity included, NaN excluded (simulated)."""
    return 0.0


@clauz3.trusted
@clauz3.mock
@clauz3.ensures(lambda result: result in ["a", "bb"])
def code() -> str:
    """One of two codes (simulated)."""
    return "a"


@clauz3.trusted
@clauz3.mock
@clauz3.ensures(lambda result: result > 5 and result < 8)
def budget() -> int:
    """6 or 7 (simulated)."""
    return 6


@clauz3.trusted
@clauz3.mock
@clauz3.ensures(lambda result: result == result and result < 10.0 and result > -10.0)
def ratio() -> float:
    """A finite float strictly between -10 and 10 (simulated)."""
    return 0.0


@clauz3.trusted
@clauz3.mock
@clauz3.ensures(lambda result: len(result) <= 2)
def items() -> list[Item]:
    """Up to two items (simulated)."""
    return []


@clauz3.trusted
@clauz3.mock
@clauz3.ensures(lambda zone, result: result == (zone == "hall"))
def is_hall(zone: str) -> bool:
    """Whether zone is the hall, decided by the library (simulated)."""
    return zone == "hall"


@clauz3.trusted
@clauz3.mock
def measure(x: float) -> None:
    """Record the float x (simulated)."""
    return None


@clauz3.trusted
@clauz3.mock
def query(where: dict[str, int]) -> None:
    """Run a query with a filter (simulated)."""
    return None
