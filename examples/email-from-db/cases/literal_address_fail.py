"""A literal address does not come from a query result, even if a row might hold the same text."""
# clauz3-expect: violated guarantee

import clauz3
from tools.db.trusted import contracts as db
from tools.db.trusted.effects import db_query, send_email
from tools.db.trusted.schemas import UserRow


@clauz3.guarantee(db.addresses_from(UserRow, "email"))
def main() -> None:
    for row in db_query("users", where={"consented": True}):
        if "@" in row.email:
            send_email(row.email, "hi")
    send_email("bob@example.com", "hi")
