"""The address is taken from the name column, not the email column."""
# clauz3-expect: violated guarantee

import clauz3
from tools.db.trusted import contracts as db
from tools.db.trusted.effects import db_query, send_email
from tools.db.trusted.schemas import UserRow


@clauz3.guarantee(db.addresses_from(UserRow, "email"))
def main() -> None:
    for row in db_query("users"):
        if "@" in row.name:
            send_email(row.name, "hi")
