"""Querying a second table breaks only_table."""
# clauz3-expect: violated guarantee

import clauz3
from tools.db.trusted import contracts as db
from tools.db.trusted.effects import db_query


@clauz3.guarantee(db.only_table("users"))
def main() -> None:
    db_query("users")
    db_query("payments")
