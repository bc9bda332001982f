"""Sending to the same address twice breaks unique_recipients()."""
# clauz3-expect: violated guarantee

import clauz3
from tools.db.trusted import contracts as db
from tools.db.trusted.effects import send_email


@clauz3.guarantee(db.unique_recipients())
def main() -> None:
    send_email("ops@example.com", "first")
    send_email("ops@example.com", "second")
