"""Row emails are unconstrained text, so an unguarded send can break the "@" precondition."""
# clauz3-expect: violated precondition

import clauz3
from tools.db.trusted import contracts as db
from tools.db.trusted.effects import db_query, send_email


@clauz3.guarantee(db.no_guarantees())
def main() -> None:
    for row in db_query("users", where={"consented": True}):
        send_email(row.email, "hi")
