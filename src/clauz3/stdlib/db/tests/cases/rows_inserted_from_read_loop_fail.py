"""A symbolic loop over read_rows can insert up to 100 rows, more than the bound of 99."""
# clauz3-expect: violated guarantee

from tools.db.trusted import contracts as db
from tools.db.trusted.effects import insert_row, read_rows
from tools.db.trusted.schemas import TaskRow

import clauz3


@clauz3.guarantee(db.only_tables(["tasks"]))
@clauz3.guarantee(db.rows_inserted_at_most(99))
def main() -> None:
    for row in read_rows(TaskRow, "data/tasks.db", "tasks", {"done": False}):
        if row.priority > 3:
            insert_row("data/urgent.db", "urgent", {"title": row.title, "priority": row.priority, "done": row.done})
