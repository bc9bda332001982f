"""Changes to the listed file only."""

from tools.db.trusted import contracts as db
from tools.db.trusted.effects import create_table, insert_row
from tools.db.trusted.schemas import TaskRow

import clauz3


@clauz3.guarantee(db.only_write_databases(["data/tasks.db"]))
def main() -> None:
    create_table(TaskRow, "data/tasks.db", "tasks")
    insert_row("./data/tasks.db", "tasks", {"title": "a", "priority": 1, "done": False})
