"""Literal recipients from an allowlist."""

import clauz3
from tools.db.trusted import contracts as db
from tools.db.trusted.effects import send_email


@clauz3.guarantee(db.only(["ops@example.com", "dev@example.com"]))
@clauz3.guarantee(db.unique_recipients())
def main() -> None:
    for addr in ["ops@example.com", "dev@example.com"]:
        send_email(addr, "deploy finished")
