"""A running total in a loop over rows is an accumulator, which symbolic loops refuse."""
# clauz3-expect: refused loop-restriction

import clauz3
from tools.db.trusted import contracts as db
from tools.db.trusted.effects import db_query, send_email


@clauz3.guarantee(db.count_at_most(100))
def main() -> None:
    sent = 0
    for row in db_query("users"):
        if "@" in row.email:
            send_email(row.email, "hi")
            sent += 1
