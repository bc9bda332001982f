"""Indexing an empty result raises IndexError."""
# clauz3-expect: violated exception

import clauz3
from tools.db.trusted import contracts as db
from tools.db.trusted.effects import db_query, send_email


@clauz3.guarantee(db.no_guarantees())
def main() -> None:
    rows = db_query("users", where={"role": "owner"})
    owner = rows[0]
    if "@" in owner.email:
        send_email(owner.email, "Your weekly report")
