"""Row type returned by the gen layer's contacts effect."""

import clauz3


class Contact(clauz3.Row):
    """One contact: an address and whether it may be written to."""

    email: str
    vip: bool
