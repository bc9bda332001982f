"""A symbolic loop over read_rows: each urgent task is copied once, so at most 100 inserts."""

from tools.db.trusted import contracts as db
from tools.db.trusted.effects import insert_row, read_rows
from tools.db.trusted.schemas import TaskRow

import clauz3


@clauz3.guarantee(db.only_tables(["tasks"]))
@clauz3.guarantee(db.rows_inserted_at_most(100))
def main() -> None:
    tasks = read_rows(TaskRow, "data/tasks.db", "tasks", {"done": False})
    if len(tasks) > 0:
        print(tasks[0].title)
    for row in tasks:
        if row.priority > 3:
            insert_row("data/urgent.db", "urgent", {"title": row.title, "priority": row.priority, "done": row.done})
