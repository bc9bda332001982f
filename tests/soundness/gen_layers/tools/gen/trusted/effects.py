"""Effects of the generative test layer. Bodies never run in the check: stubs record the calls."""

from tools.gen.trusted.events import Outgoing, Spent
from tools.gen.trusted.rows import Contact

import clauz3
import clauz3.fluent
from clauz3.events import performs
from clauz3.fluent import fluent

# Whether each door is locked; every door starts locked.
Locked = fluent("gen_locked", key=str, value=bool, initial=True)


@clauz3.trusted
@clauz3.mock
@clauz3.requires(lambda amount: amount >= 0, message="amount must not be negative")
@performs(lambda amount: [Spent(amount)])
def pay(amount: int) -> None:
    """Pay amount (simulated)."""
    return None


@clauz3.trusted
@clauz3.mock
@performs(lambda to, n: [Outgoing(to)])
def send(to: str, n: int) -> None:
    """Send n messages to `to` (simulated)."""
    return None


@clauz3.trusted
@clauz3.mock
def note(x: float) -> None:
    """Record the float x (simulated)."""
    return None


@clauz3.trusted
@clauz3.mock
@clauz3.ensures(lambda door, result: result >= 0 and result <= 3)
@clauz3.fluent.effect(lambda door: Locked.set(door, True))
def lock(door: str) -> int:
    """Lock door; returns a small code (simulated)."""
    return 0


@clauz3.trusted
@clauz3.mock
@clauz3.ensures(lambda door, result: result >= 0 and result <= 3)
@clauz3.fluent.effect(lambda door: Locked.set(door, False))
def unlock(door: str) -> int:
    """Unlock door; returns a small code (simulated)."""
    return 0


@clauz3.trusted
@clauz3.mock
def pair(a: int, b: int) -> None:
    """Record two ints (simulated)."""
    return None


@clauz3.trusted
@clauz3.mock
@clauz3.ensures(lambda key, result: result >= 0 and result <= 10)
def read_int(key: str) -> int:
    """A small non-negative int (simulated)."""
    return 0


@clauz3.trusted
@clauz3.mock
def read_big(key: str) -> int:
    """Any int (simulated)."""
    return 0


@clauz3.trusted
@clauz3.mock
def read_float(key: str) -> float:
    """Any float, NaN and infinities included (simulated)."""
    return 0.0


@clauz3.trusted
@clauz3.mock
def read_flag(key: str) -> bool:
    """Any bool (simulated)."""
    return False


@clauz3.trusted
@clauz3.mock
@clauz3.ensures(lambda key, result: len(result) <= 3)
def read_str(key: str) -> str:
    """A short string (simulated)."""
    return ""


@clauz3.trusted
@clauz3.mock
@clauz3.ensures(lambda key, result: len(result) <= 3)
def read_list(key: str) -> list[int]:
    """A short list of ints (simulated)."""
    return []


@clauz3.trusted
@clauz3.mock
@clauz3.ensures(lambda result: len(result) <= 3)
def contacts() -> list[Contact]:
    """Up to three contacts (simulated)."""
    return []


@clauz3.trusted
@clauz3.mock
def read_opt(key: str) -> int | None:
    """An int or None (simulated)."""
    return None


@clauz3.trusted
@clauz3.mock
@clauz3.ensures(lambda key, result: len(result) <= 3)
def read_set(key: str) -> set[int]:
    """A small set of ints (simulated)."""
    return set()


@clauz3.trusted
@clauz3.mock
@clauz3.ensures(lambda key, result: len(result) <= 3)
def read_dict(key: str) -> dict[str, int]:
    """A small dict (simulated)."""
    return {}


@clauz3.trusted
@clauz3.mock
@clauz3.ensures(lambda key, result: len(result) <= 3)
def read_strs(key: str) -> list[str]:
    """A short list of strs (simulated)."""
    return []


@clauz3.trusted
@clauz3.mock
@clauz3.ensures(lambda key, result: len(result) <= 3)
def read_floats(key: str) -> list[float]:
    """A short list of floats (simulated)."""
    return []
