"""`while` loops are outside the checked subset."""
# clauz3-expect: refused unsupported-statement

import clauz3
from tools.db.trusted import contracts as db
from tools.db.trusted.effects import db_query, send_email


@clauz3.guarantee(db.count_at_most(100))
def main() -> None:
    rows = db_query("users")
    i = 0
    while i < len(rows):
        send_email(rows[i].email, "hi")
        i += 1
