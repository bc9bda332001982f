"""Example row schema for programs that keep a simple task list."""

import clauz3


class TaskRow(clauz3.Row):
    """One task: its title, its priority and whether it is done."""

    title: str
    priority: int
    done: bool
