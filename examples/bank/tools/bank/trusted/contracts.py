"""Contracts over the bank effects: total spending and the accounts touched."""

from tools.bank.trusted.effects import balance, withdraw

from clauz3 import spec
from clauz3.spec import ContractSpec, contract, effect


@contract(description="at most {limit} is withdrawn in total")
def max_spend(limit: int) -> ContractSpec:
    return effect(withdraw).sum(lambda e: e.amount) <= limit


@contract(description="only account {account} is read or withdrawn from")
def only_account(account: str) -> ContractSpec:
    return effect(withdraw, balance).all(lambda e: e.account == account)


@contract(description="promises nothing about the bank")
def no_guarantees() -> ContractSpec:
    return spec.no_guarantees()
