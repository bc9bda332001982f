"""Row types returned by db_query."""

import clauz3


class UserRow(clauz3.Row):
    """One user: display name, email address, whether they consented to email, and their role."""

    name: str
    email: str
    consented: bool
    role: str
