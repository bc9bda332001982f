"""Querying without sending anything."""

import clauz3
from tools.db.trusted import contracts as db
from tools.db.trusted.effects import db_query


@clauz3.guarantee(db.none())
@clauz3.guarantee(db.at_most(1))
def main() -> None:
    rows = db_query("users", where={"consented": True})
    print(len(rows))
