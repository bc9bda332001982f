"""Up to 100 rows can mean 100 emails, which is more than 99."""
# clauz3-expect: violated guarantee

import clauz3
from tools.db.trusted import contracts as db
from tools.db.trusted.effects import db_query, send_email


@clauz3.guarantee(db.count_at_most(99))
def main() -> None:
    for row in db_query("users", where={"consented": True}):
        if "@" in row.email:
            send_email(row.email, "hi")
