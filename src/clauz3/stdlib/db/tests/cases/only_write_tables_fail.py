"""A table outside the list is created."""
# clauz3-expect: violated guarantee

from tools.db.trusted import contracts as db
from tools.db.trusted.effects import create_table
from tools.db.trusted.schemas import TaskRow

import clauz3


@clauz3.guarantee(db.only_write_tables(["tasks"]))
def main() -> None:
    create_table(TaskRow, "data/tasks.db", "audit")
