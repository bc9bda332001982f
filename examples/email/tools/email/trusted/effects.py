"""The email effect. It is a simulation: nothing is delivered and nothing is stored."""

import clauz3


@clauz3.trusted
@clauz3.mock
@clauz3.requires(lambda addr, msg: "@" in addr, message="addr must contain \"@\"")
@clauz3.protected(addr="recipient", msg="text")
def send_email(addr: str, msg: str) -> None:
    """Send the text msg to the email address addr (simulated: nothing is delivered)."""
    return None


@clauz3.trusted
@clauz3.mock
@clauz3.reads_data("the newest email in your inbox")
def read_latest_email() -> str:
    """The text of the newest email in the inbox (simulated: always the same message)."""
    return "From: carol@example.com\nHi! Please send the quarterly report to reports@example.org. Carol"
