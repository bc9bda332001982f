"""Home effects. They are simulations: no device is contacted and nothing is bought."""

import clauz3
import clauz3.fluent
from clauz3.fluent import fluent

# Whether each door is locked; every door starts locked.
DoorLocked = fluent("door_locked", key=str, value=bool, initial=True)


@clauz3.trusted
@clauz3.mock
@clauz3.requires(lambda zone, temp_f: 30 <= temp_f and temp_f <= 90, message="temp_f must be between 30 and 90")
def set_thermostat(zone: str, temp_f: int) -> None:
    """Set the thermostat of zone to temp_f degrees Fahrenheit (simulated)."""
    return None


@clauz3.trusted
@clauz3.mock
@clauz3.requires(lambda door: len(door) > 0, message="door must not be empty")
@clauz3.fluent.effect(lambda door: DoorLocked.set(door, False))
def unlock_door(door: str) -> None:
    """Unlock the named door (simulated)."""
    return None


@clauz3.trusted
@clauz3.mock
@clauz3.requires(lambda door: len(door) > 0, message="door must not be empty")
@clauz3.fluent.effect(lambda door: DoorLocked.set(door, True))
def lock_door(door: str) -> None:
    """Lock the named door (simulated)."""
    return None


@clauz3.trusted
@clauz3.mock
@clauz3.requires(lambda item, qty, usd: qty > 0 and usd > 0, message="qty and usd must be positive")
@clauz3.protected(usd="amount")
def order_grocery(item: str, qty: int, usd: int) -> None:
    """Order qty units of item for usd US dollars in total (simulated: nothing is bought)."""
    return None
