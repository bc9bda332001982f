"""INT-6 parity: every builtin and method of 01 §3.4 has an interpreter implementation (and vice versa)."""

from __future__ import annotations

from clauz3.interp.builtins import IMPLEMENTATIONS
from clauz3.language import builtins_table as table


def table_keys() -> set[str]:
    keys = set(table.BUILTINS)
    keys |= {f"{recv}.{name}" for recv, name in table.METHODS}
    keys |= set(table.OPERATORS_EXACT)
    keys |= set(table.MATH_CONSTANTS)
    return keys


def test_every_table_entry_has_an_implementation() -> None:
    missing = sorted(table_keys() - set(IMPLEMENTATIONS))
    assert missing == []


def test_no_implementation_outside_the_table() -> None:
    extra = sorted(set(IMPLEMENTATIONS) - table_keys())
    assert extra == []


def test_prover_models_cover_the_same_names() -> None:
    """The prover's model table (``MODELS``) and the interpreter's implementations have the same keys."""
    from clauz3.prover.builtins import MODELS

    # `in` on str is an operator in proofs (Compare), a table entry here.
    assert set(MODELS) | set(table.OPERATORS_EXACT) == set(IMPLEMENTATIONS)
