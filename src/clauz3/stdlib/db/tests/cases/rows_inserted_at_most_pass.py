"""Two rows from a literal loop; creating the table inserts none."""

from tools.db.trusted import contracts as db
from tools.db.trusted.effects import create_table, insert_row
from tools.db.trusted.schemas import TaskRow

import clauz3


@clauz3.guarantee(db.rows_inserted_at_most(2))
def main() -> None:
    create_table(TaskRow, "data/tasks.db", "tasks")
    for title in ["a", "b"]:
        insert_row("data/tasks.db", "tasks", {"title": title, "priority": 1, "done": False})
