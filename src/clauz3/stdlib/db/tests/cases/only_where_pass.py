"""The promised filter, exactly."""

from tools.db.trusted import contracts as db
from tools.db.trusted.effects import read_rows
from tools.db.trusted.schemas import TaskRow

import clauz3


@clauz3.guarantee(db.only_where({"done": False}))
def main() -> None:
    read_rows(TaskRow, "data/tasks.db", "tasks", {"done": False})
