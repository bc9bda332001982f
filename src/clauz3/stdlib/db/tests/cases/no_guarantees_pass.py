"""Create, insert and read."""

from tools.db.trusted import contracts as db
from tools.db.trusted.effects import create_table, insert_row, read_rows
from tools.db.trusted.schemas import TaskRow

import clauz3


@clauz3.guarantee(db.no_guarantees())
def main() -> None:
    create_table(TaskRow, "data/tasks.sqlite", "tasks")
    insert_row("data/tasks.sqlite", "tasks", {"title": "a", "priority": 1, "done": False})
    read_rows(TaskRow, "data/tasks.sqlite", "tasks", {})
