"""One query and one email are two calls in total."""

import clauz3
from tools.db.trusted import contracts as db
from tools.db.trusted.effects import db_query, send_email


@clauz3.guarantee(db.at_most(2))
def main() -> None:
    rows = db_query("users")
    send_email("ops@example.com", "queried")
