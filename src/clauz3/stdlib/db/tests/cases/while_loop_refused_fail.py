"""A while loop is refused."""
# clauz3-expect: refused unsupported-statement

from tools.db.trusted import contracts as db
from tools.db.trusted.effects import read_rows
from tools.db.trusted.schemas import TaskRow

import clauz3


@clauz3.guarantee(db.no_db_writes())
def main() -> None:
    while True:
        read_rows(TaskRow, "data/tasks.db", "tasks", {})
