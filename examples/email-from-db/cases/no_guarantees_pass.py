"""no_guarantees() holds when every call is valid."""

import clauz3
from tools.db.trusted import contracts as db
from tools.db.trusted.effects import db_query, send_email


@clauz3.guarantee(db.no_guarantees())
def main() -> None:
    rows = db_query("admins")
    if len(rows) > 0 and "@" in rows[0].email:
        send_email(rows[0].email, "You are the first admin")
    send_email("ops@example.com", "done")
