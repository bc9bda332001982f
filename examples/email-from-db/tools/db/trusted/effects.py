"""Database and email effects. They are simulations: no database is read and nothing is delivered."""

from tools.db.trusted.schemas import UserRow

import clauz3


@clauz3.trusted
@clauz3.mock
@clauz3.ensures(lambda result: len(result) <= 100)
@clauz3.reads_data("the table {table}")
def db_query(table: str, where: dict[str, object] | None = None) -> list[UserRow]:
    """Return up to 100 rows of table whose columns equal the values in where (simulated: no rows)."""
    return []


@clauz3.trusted
@clauz3.mock
@clauz3.requires(lambda addr, msg: "@" in addr, message="addr must contain \"@\"")
@clauz3.protected(addr="recipient", msg="text")
def send_email(addr: str, msg: str) -> None:
    """Send the text msg to the email address addr (simulated: nothing is delivered)."""
    return None
