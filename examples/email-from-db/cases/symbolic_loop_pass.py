"""Email every consenting user: addresses come from the rows, at most 100 (the query's bound)."""

import clauz3
from tools.db.trusted import contracts as db
from tools.db.trusted.effects import db_query, send_email
from tools.db.trusted.schemas import UserRow


@clauz3.guarantee(db.addresses_from(UserRow, "email"))
@clauz3.guarantee(db.count_at_most(100))
def main() -> None:
    for row in db_query("users", where={"consented": True}):
        if "@" in row.email:
            send_email(row.email, "hi")
