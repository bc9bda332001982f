"""Effects of the issue-20 red-team layer (tests/soundness/test_redteam20_flows.py). Bodies never run."""

from tools.rt20.trusted.rows import Item

import clauz3


@clauz3.trusted
@clauz3.mock
@clauz3.reads_data("the item list")
@clauz3.ensures(lambda result: len(result) <= 2)
def items() -> list[Item]:
    """Up to two items (simulated)."""
    return []


@clauz3.trusted
@clauz3.mock
@clauz3.reads_data("a web page")
def page() -> str:
    """A web page (simulated)."""
    return ""


@clauz3.trusted
@clauz3.mock
def send(to: str, body: str) -> None:
    """Send body to `to` (simulated)."""
    return None


@clauz3.trusted
@clauz3.mock
def post(body: str, tag: str = "news") -> None:
    """Publish body under tag (simulated)."""
    return None
