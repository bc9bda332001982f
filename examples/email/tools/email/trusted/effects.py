"""The email effect. It is a simulation: nothing is delivered and nothing is stored."""

import clauz3


@clauz3.trusted
@clauz3.mock
@clauz3.requires(lambda addr, msg: "@" in addr, message="addr must contain \"@\"")
@clauz3.protected(addr="recipient", msg="text")
def send_email(addr: str, msg: str) -> None:
    """Send the text msg to the email address addr (simulated: nothing is delivered)."""
    return None
