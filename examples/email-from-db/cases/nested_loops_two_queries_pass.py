"""Introduce every pair of consenting users from two queries: addresses come from the rows."""

import clauz3
from tools.db.trusted import contracts as db
from tools.db.trusted.effects import db_query, send_email
from tools.db.trusted.schemas import UserRow


@clauz3.guarantee(db.addresses_from(UserRow, "email"))
def main() -> None:
    admins = db_query("users", where={"role": "admin"})
    members = db_query("users", where={"consented": True})
    for admin in admins:
        for member in members:
            if admin.email != member.email and "@" in member.email:
                send_email(member.email, "Meet " + admin.email)
