"""The email effect of the tutorial. A mock: nothing is delivered and nothing is stored."""

import clauz3


@clauz3.trusted
@clauz3.mock
@clauz3.requires(lambda addr, msg: "@" in addr, message="addr must contain @")
def send_email(addr: str, msg: str) -> None:
    """Send the text msg to the email address addr (mock: nothing is delivered)."""
    return None
