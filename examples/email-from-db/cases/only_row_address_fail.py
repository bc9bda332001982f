"""A row's address could be anything, so it may fall outside the allowlist."""
# clauz3-expect: violated guarantee

import clauz3
from tools.db.trusted import contracts as db
from tools.db.trusted.effects import db_query, send_email


@clauz3.guarantee(db.only(["ops@example.com"]))
def main() -> None:
    for row in db_query("users"):
        if "@" in row.email:
            send_email(row.email, "hi")
