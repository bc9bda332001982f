"""Row type returned by the red-team layer's items effect."""

import clauz3


class Item(clauz3.Row):
    """One item: a name and a price in cents."""

    name: str
    cents: int
