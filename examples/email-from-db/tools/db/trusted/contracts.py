"""Contracts over queries and emails: where addresses come from, counts, recipients, tables and filters."""

from tools.db.trusted.effects import db_query, send_email

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


# No description template here: CON-4 lets templates name only scalar, path and sequence
# parameters, so a Row-class parameter is described by the docstring instead.
@contract
def addresses_from(schema: type, field: str) -> ContractSpec:
    """Every email goes to an address taken unchanged from the given field of a query result row of that schema."""
    column = _column(schema, field)
    return effect(send_email).all(lambda e: e.addr == column)


@contract(description="at most {n} emails are sent")
def count_at_most(n: int) -> ContractSpec:
    return effect(send_email).count() <= n


@contract(description="every email goes to one of {addresses}")
def only(addresses: list[str]) -> ContractSpec:
    return effect(send_email).all(lambda e: e.addr in addresses)


@contract(description="no email is sent")
def none() -> ContractSpec:
    return effect(send_email).empty()


@contract(description="promises nothing about queries or email")
def no_guarantees() -> ContractSpec:
    return spec.no_guarantees()


@contract(description="no address receives two emails")
def unique_recipients() -> ContractSpec:
    return effect(send_email).distinct(lambda e: e.addr)


@contract(description="at most {count} calls in total, queries and emails together")
def at_most(count: int) -> ContractSpec:
    return effect(db_query, send_email).count() <= count


@contract(description="only table {table} is queried")
def only_table(table: str) -> ContractSpec:
    return effect(db_query).all(lambda e: e.table == table)


@contract
def only_where(filter_dict: dict[str, object]) -> ContractSpec:
    """Every query passes exactly the given filter as where (a query that omits where does not)."""
    return effect(db_query).all(lambda e: e.where == filter_dict)
