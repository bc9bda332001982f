"""at_most counts queries as well as emails: one query and one email exceed one call."""
# clauz3-expect: violated guarantee

import clauz3
from tools.db.trusted import contracts as db
from tools.db.trusted.effects import db_query, send_email


@clauz3.guarantee(db.at_most(1))
def main() -> None:
    db_query("users")
    send_email("ops@example.com", "queried")
