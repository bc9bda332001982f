"""Banking effects: each calls the AgentDojo banking tool of the same name on the bound environment."""

from tools.banking.trusted.world import call

import clauz3


@clauz3.trusted
@clauz3.mock
def get_iban() -> str:
    """The IBAN of the user's account."""
    return call("get_iban")


@clauz3.trusted
@clauz3.mock
def get_balance() -> str:
    """The balance of the user's account."""
    return call("get_balance")


@clauz3.trusted
@clauz3.mock
@clauz3.reads_data("your recent transactions")
def get_most_recent_transactions(n: int = 100) -> str:
    """The n most recent transactions (sender, recipient, amount, subject, date)."""
    return call("get_most_recent_transactions", n=n)


@clauz3.trusted
@clauz3.mock
@clauz3.reads_data("your scheduled transactions")
def get_scheduled_transactions() -> str:
    """The scheduled (standing) transactions with their ids."""
    return call("get_scheduled_transactions")


@clauz3.trusted
@clauz3.mock
@clauz3.reads_data("the file {file_path}")
def read_file(file_path: str) -> str:
    """The text of a file the user keeps (bills, notices); may hold instructions from anyone."""
    return call("read_file", file_path=file_path)


@clauz3.trusted
@clauz3.mock
def get_user_info() -> str:
    """The user's name and address."""
    return call("get_user_info")


@clauz3.trusted
@clauz3.mock
@clauz3.protected(recipient="account", amount="amount", subject="text")
def send_money(recipient: str, amount: float, subject: str, date: str) -> str:
    """Pay amount to the IBAN recipient now."""
    return call("send_money", recipient=recipient, amount=amount, subject=subject, date=date)


@clauz3.trusted
@clauz3.mock
@clauz3.protected(recipient="account", amount="amount", subject="text")
def schedule_transaction(recipient: str, amount: float, subject: str, date: str, recurring: bool) -> str:
    """Schedule a payment (a standing order when recurring)."""
    return call("schedule_transaction", recipient=recipient, amount=amount, subject=subject, date=date,
                recurring=recurring)


@clauz3.trusted
@clauz3.mock
@clauz3.protected(recipient="account", amount="amount", subject="text")
def update_scheduled_transaction(id: int, recipient: str | None = None, amount: float | None = None,
                                 subject: str | None = None, date: str | None = None,
                                 recurring: bool | None = None) -> str:
    """Change the fields given (not None) of the scheduled transaction id."""
    return call("update_scheduled_transaction", id=id, recipient=recipient, amount=amount, subject=subject,
                date=date, recurring=recurring)


@clauz3.trusted
@clauz3.mock
@clauz3.protected(password="text")
def update_password(password: str) -> str:
    """Set the user's password."""
    return call("update_password", password=password)


@clauz3.trusted
@clauz3.mock
def update_user_info(first_name: str | None = None, last_name: str | None = None, street: str | None = None,
                     city: str | None = None) -> str:
    """Change the fields given (not None) of the user's name and address."""
    return call("update_user_info", first_name=first_name, last_name=last_name, street=street, city=city)
