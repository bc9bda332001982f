"""The email effects of the tutorial. Mocks: nothing is delivered, nothing is stored, nothing is fetched."""

import clauz3

# The one email in the mock inbox: a fixed example, so the tutorial shows the same card every time.
INBOX = (
    "From: dana@northwind-traders.example\n"
    "Subject: Your order #58213\n"
    "\n"
    "Hi! Your order has shipped. Track it at www.northwind-parcels.example/track/58213, or reply to this\n"
    "address with any questions.\n"
    "-- Dana\n"
)


@clauz3.trusted
@clauz3.mock
@clauz3.requires(lambda addr, msg: "@" in addr, message="addr must contain @")
@clauz3.protected(addr="recipient", msg="text")
def send_email(addr: str, msg: str) -> None:
    """Send the text msg to the email address addr (mock: nothing is delivered)."""
    return None


@clauz3.trusted
@clauz3.mock
@clauz3.reads_data("an email in your mock inbox")
def read_inbox() -> str:
    """The newest email in the mock inbox, as text (mock: always the same example email)."""
    return INBOX
