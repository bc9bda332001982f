"""Contracts over the db effects: which files and tables are read or written, filters, counts."""

from tools.db.trusted.effects import create_table, insert_row, read_rows

from clauz3 import DirectoryPath, FilePath, spec
from clauz3.spec import ContractSpec, contract, effect


def _spellings(paths: list[FilePath]) -> list[str]:
    return [str(p) for p in paths] + ["./" + str(p) for p in paths]


def _reads_under(d: str, inside: bool) -> ContractSpec:
    # Component-wise, in every spelling the path grammar admits; "." covers the whole project.
    whole = d == "."
    prefix = d + "/"
    dotted_prefix = "./" + d + "/"
    if inside:
        return effect(read_rows).all(lambda e: whole or e.path.startswith(prefix) or e.path.startswith(dotted_prefix))
    return effect(read_rows).all(lambda e: not (whole or e.path.startswith(prefix) or e.path.startswith(dotted_prefix)))


@contract(description="promises nothing about databases")
def no_guarantees() -> ContractSpec:
    return spec.no_guarantees()


@contract(description="no database is read")
def no_db_reads() -> ContractSpec:
    return effect(read_rows).empty()


@contract(description="databases are read at most {n} times")
def reads_at_most(n: int) -> ContractSpec:
    return effect(read_rows).count() <= n


@contract(description="only databases under {dir} are read")
def only_read_under(dir: DirectoryPath) -> ContractSpec:
    return _reads_under(str(dir), True)


@contract(description="no database under {dir} is read")
def never_read_under(dir: DirectoryPath) -> ContractSpec:
    return _reads_under(str(dir), False)


@contract(description="only the tables {tables} are read")
def only_tables(tables: list[str]) -> ContractSpec:
    return effect(read_rows).all(lambda e: e.table in tables)


@contract
def only_where(where: dict[str, object]) -> ContractSpec:
    """Every read passes exactly the given filter as where."""
    return effect(read_rows).all(lambda e: e.where == where)


@contract(description="no database is changed")
def no_db_writes() -> ContractSpec:
    return effect(create_table, insert_row).empty()


@contract(description="only the database files {paths} are changed")
def only_write_databases(paths: list[FilePath]) -> ContractSpec:
    allowed = _spellings(paths)
    return effect(create_table, insert_row).all(lambda e: e.path in allowed)


@contract(description="only the tables {tables} are created or inserted into")
def only_write_tables(tables: list[str]) -> ContractSpec:
    return effect(create_table, insert_row).all(lambda e: e.table in tables)


@contract(description="at most {n} database changes (tables created plus rows inserted)")
def writes_at_most(n: int) -> ContractSpec:
    return effect(create_table, insert_row).count() <= n


@contract(description="at most {n} rows are inserted")
def rows_inserted_at_most(n: int) -> ContractSpec:
    return effect(insert_row).count() <= n
