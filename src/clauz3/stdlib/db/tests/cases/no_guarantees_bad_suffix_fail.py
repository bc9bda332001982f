"""A path without a database suffix breaks the precondition."""
# clauz3-expect: violated precondition

from tools.db.trusted import contracts as db
from tools.db.trusted.effects import read_rows
from tools.db.trusted.schemas import TaskRow

import clauz3


@clauz3.guarantee(db.no_guarantees())
def main() -> None:
    read_rows(TaskRow, "notes/a.txt", "tasks", {})
