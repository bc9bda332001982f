"""Writes only."""

from tools.db.trusted import contracts as db
from tools.db.trusted.effects import insert_row

import clauz3


@clauz3.guarantee(db.no_db_reads())
def main() -> None:
    insert_row("data/tasks.db", "tasks", {"title": "a", "priority": 1, "done": False})
