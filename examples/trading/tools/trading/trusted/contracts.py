"""Contracts over approvals and sales: which approvals are read, and where sales come from."""

from tools.trading.trusted.effects import list_approvals, sell_shares

from clauz3 import ColumnRef, Row, spec
from clauz3.spec import ContractSpec, contract, effect


def _column(schema: type, field: str) -> ColumnRef:
    # Runs at prove time with the guarantee's literal arguments; a bad schema or field name
    # becomes a contract-error naming the helper instead of a vacuous contract.
    if not (isinstance(schema, type) and issubclass(schema, Row)):
        raise TypeError(f"schema must be a Row class, got {schema!r}")
    column = getattr(schema, field, None)
    if not isinstance(column, ColumnRef):
        raise ValueError(f"{schema.__name__} has no field {field!r}")
    return column


# Helpers taking a dict or a Row class have no description template (CON-4 lets templates name
# only scalar, path and sequence parameters); their docstring describes them instead.


@contract
def approvals_only_where(filter_dict: dict[str, object]) -> ContractSpec:
    """Every approval listing passes exactly the given filter as where."""
    return effect(list_approvals).all(lambda e: e.where == filter_dict)


@contract(description="only approvals of desk {desk} are listed")
def approvals_only_desk(desk: str) -> ContractSpec:
    return effect(list_approvals).all(lambda e: e.desk == desk)


@contract
def stock_from(schema: type, field: str) -> ContractSpec:
    """Every sale's stock is taken unchanged from the given field of a listed row of that schema."""
    column = _column(schema, field)
    return effect(sell_shares).all(lambda e: e.stock == column)


@contract
def shares_from(schema: type, field: str) -> ContractSpec:
    """Every sale's share count is taken unchanged from the given field of a listed row of that schema."""
    column = _column(schema, field)
    return effect(sell_shares).all(lambda e: e.shares == column)


@contract
def sales_match_rows(schema: type) -> ContractSpec:
    """Every sale's stock and share count both come unchanged from one and the same listed row of that schema."""
    stock = _column(schema, "stock")
    shares = _column(schema, "shares")
    return effect(sell_shares).all(lambda e: (e.stock, e.shares) == (stock, shares))


@contract(description="at most {n} sell orders are placed")
def orders_at_most(n: int) -> ContractSpec:
    return effect(sell_shares).count() <= n


@contract(description="no shares are sold")
def none() -> ContractSpec:
    return effect(sell_shares).empty()


@contract(description="promises nothing about trading")
def no_guarantees() -> ContractSpec:
    return spec.no_guarantees()
