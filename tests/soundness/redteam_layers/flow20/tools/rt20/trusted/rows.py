"""Row type returned by the issue-20 red-team layer."""

import clauz3


class Item(clauz3.Row):
    """One item: a name and a price in cents."""

    name: str
    cents: int
