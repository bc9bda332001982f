"""Three rows exceed two."""
# clauz3-expect: violated guarantee

from tools.db.trusted import contracts as db
from tools.db.trusted.effects import insert_row

import clauz3


@clauz3.guarantee(db.rows_inserted_at_most(2))
def main() -> None:
    for title in ["a", "b", "c"]:
        insert_row("data/tasks.db", "tasks", {"title": title, "priority": 1, "done": False})
