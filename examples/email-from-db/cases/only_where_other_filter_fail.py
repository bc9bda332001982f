"""A different filter breaks only_where."""
# clauz3-expect: violated guarantee

import clauz3
from tools.db.trusted import contracts as db
from tools.db.trusted.effects import db_query


@clauz3.guarantee(db.only_where({"consented": True}))
def main() -> None:
    db_query("users", where={"consented": False})
