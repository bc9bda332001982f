"""A read below private/."""
# clauz3-expect: violated guarantee

from tools.db.trusted import contracts as db
from tools.db.trusted.effects import read_rows
from tools.db.trusted.schemas import TaskRow

import clauz3


@clauz3.guarantee(db.never_read_under("private"))
def main() -> None:
    read_rows(TaskRow, "private/people.db", "tasks", {})
