"""Another file is changed."""
# clauz3-expect: violated guarantee

from tools.db.trusted import contracts as db
from tools.db.trusted.effects import insert_row

import clauz3


@clauz3.guarantee(db.only_write_databases(["data/tasks.db"]))
def main() -> None:
    insert_row("data/other.db", "tasks", {"title": "a", "priority": 1, "done": False})
