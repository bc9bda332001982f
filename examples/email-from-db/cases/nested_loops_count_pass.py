"""Every admin meets every consenting member: two queries of at most 100 rows, so at most 10,000 emails."""

import clauz3
from tools.db.trusted import contracts as db
from tools.db.trusted.effects import db_query, send_email
from tools.db.trusted.schemas import UserRow


@clauz3.guarantee(db.count_at_most(10000))
def main() -> None:
    admins = db_query("users", where={"role": "admin"})
    members = db_query("users", where={"consented": True})
    for admin in admins:
        for member in members:
            if "@" in member.email:
                send_email(member.email, "Meet " + admin.email)
