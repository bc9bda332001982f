"""Contracts over the trick effects."""

from tools.trick.trusted import other
from tools.trick.trusted.effects import len as counted
from tools.trick.trusted.effects import max as picked
from tools.trick.trusted.effects import pay, print

from clauz3.spec import ContractSpec, contract, effect

LIMIT = 2
ALLOWED = [1, 2]


@contract(description="at most {n} pages printed")
def prints_at_most(n: int) -> ContractSpec:
    return effect(print).count() <= n


@contract(description="at most {n} counts")
def counts_at_most(n: int) -> ContractSpec:
    return effect(counted).count() <= n


@contract(description="at most {n} picks")
def picks_at_most(n: int) -> ContractSpec:
    return effect(picked).count() <= n


@contract(description="at most {n} payments")
def pays_at_most(n: int) -> ContractSpec:
    return effect(pay).count() <= n


@contract(description="at most {n} payments from the other account")
def other_pays_at_most(n: int) -> ContractSpec:
    return effect(other.pay).count() <= n


@contract(description="at most the limit is paid")
def under_limit() -> ContractSpec:
    return effect(pay).sum(lambda e: e.amount) <= LIMIT


@contract(description="only allowed amounts")
def allowed_amounts() -> ContractSpec:
    return effect(pay).all(lambda e: e.amount in ALLOWED)
