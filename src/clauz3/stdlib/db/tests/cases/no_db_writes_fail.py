"""Creating a table is a change."""
# clauz3-expect: violated guarantee

from tools.db.trusted import contracts as db
from tools.db.trusted.effects import create_table
from tools.db.trusted.schemas import TaskRow

import clauz3


@clauz3.guarantee(db.no_db_writes())
def main() -> None:
    create_table(TaskRow, "data/tasks.db", "tasks")
