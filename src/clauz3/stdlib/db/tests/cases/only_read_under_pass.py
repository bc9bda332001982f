"""Reads below data/."""

from tools.db.trusted import contracts as db
from tools.db.trusted.effects import read_rows
from tools.db.trusted.schemas import TaskRow

import clauz3


@clauz3.guarantee(db.only_read_under("data"))
def main() -> None:
    read_rows(TaskRow, "data/tasks.db", "tasks", {})
    read_rows(TaskRow, "./data/x/y.sqlite3", "tasks", {})
