"""Omitting where leaves the filter unconstrained, so it need not equal the promised one."""
# clauz3-expect: violated guarantee

import clauz3
from tools.db.trusted import contracts as db
from tools.db.trusted.effects import db_query


@clauz3.guarantee(db.only_where({"consented": True}))
def main() -> None:
    db_query("users")
