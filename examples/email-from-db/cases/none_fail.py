"""Any email breaks none()."""
# clauz3-expect: violated guarantee

import clauz3
from tools.db.trusted import contracts as db
from tools.db.trusted.effects import send_email


@clauz3.guarantee(db.none())
def main() -> None:
    send_email("ops@example.com", "hi")
