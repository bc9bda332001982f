# ruff: noqa  (an agent program kept as it was found: repeats and unused names are the point)
"""Family 5 (found by the generator): a dict behind an `object`-typed list element used as a set
element. The checker accepted it; the run raises TypeError: unhashable type: 'dict'. Expected:
refused (type-error) wherever a collection would store it."""

from tools.gen.trusted import contracts as g
from tools.gen.trusted.effects import pay

import clauz3


@clauz3.guarantee(g.max_pay(3))
def main() -> None:
    o8 = [1, {3: 4}]
    s9 = {o8[1]}
    pay(1)
