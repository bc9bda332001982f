"""Every query reads the users table with exactly the promised filter."""

import clauz3
from tools.db.trusted import contracts as db
from tools.db.trusted.effects import db_query, send_email


@clauz3.guarantee(db.only_table("users"))
@clauz3.guarantee(db.only_where({"consented": True}))
def main() -> None:
    for row in db_query("users", where={"consented": True}):
        if "@" in row.email:
            send_email(row.email, "hi")
    db_query("users", where={"consented": True})
