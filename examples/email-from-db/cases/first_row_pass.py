"""Indexing the result after a length check; the first user's address comes from the rows."""

import clauz3
from tools.db.trusted import contracts as db
from tools.db.trusted.effects import db_query, send_email
from tools.db.trusted.schemas import UserRow


@clauz3.guarantee(db.addresses_from(UserRow, "email"))
@clauz3.guarantee(db.count_at_most(1))
def main() -> None:
    rows = db_query("users", where={"role": "owner"})
    if len(rows) > 0:
        owner = rows[0]
        if "@" in owner.email:
            send_email(owner.email, "Your weekly report")
