"""Effects of the label-propagation test layer (tests/soundness/test_flow_labels.py). Bodies never run."""

import clauz3


@clauz3.trusted
@clauz3.mock
@clauz3.reads_data("the web page {url}")
def read_web(url: str) -> str:
    """The text of a web page (simulated)."""
    return ""


@clauz3.trusted
@clauz3.mock
@clauz3.reads_data("the number {key}")
def read_num(key: str) -> int:
    """A number read from somewhere (simulated)."""
    return 0


@clauz3.trusted
@clauz3.mock
@clauz3.reads_data("the list {key}")
def read_words(key: str) -> list[str]:
    """A list of words read from somewhere (simulated)."""
    return []


@clauz3.trusted
@clauz3.mock
def send(to: str, body: str) -> None:
    """Send body to `to` (simulated)."""
    return None


@clauz3.trusted
@clauz3.mock
def log(n: int) -> None:
    """Record the number n (simulated)."""
    return None
