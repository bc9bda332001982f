"""Contracts of the generative test layer: immediate limits and end states."""

from tools.gen.trusted.effects import Locked, note, pay, send
from tools.gen.trusted.events import Outgoing, Spent
from tools.gen.trusted.rows import Contact

from clauz3.spec import ContractSpec, contract, effect


@contract(description="at most {limit} is paid in total")
def max_pay(limit: int) -> ContractSpec:
    return effect(pay).sum(lambda e: e.amount) <= limit


@contract(description="at most {n} payments")
def pays_at_most(n: int) -> ContractSpec:
    return effect(pay).count() <= n


@contract(description="at most {n} messages in total")
def messages_at_most(n: int) -> ContractSpec:
    return effect(send).sum(lambda e: e.n) <= n


@contract(description="nothing is sent to {who}")
def never_to(who: str) -> ContractSpec:
    return effect(send).where(lambda e: e.to == who).empty()


@contract(description="only {allowed} receive messages")
def only_to(allowed: list[str]) -> ContractSpec:
    return effect(send).all(lambda e: e.to in allowed)


@contract(description="every note is a number (not NaN)")
def notes_are_numbers() -> ContractSpec:
    return effect(note).all(lambda e: e.x == e.x)


@contract(description="every note is below {limit}")
def notes_below(limit: float) -> ContractSpec:
    return effect(note).all(lambda e: e.x < limit)


@contract(description="door {door} is locked at the end")
def locked_at_end(door: str) -> ContractSpec:
    return Locked.final[door] == True  # noqa: E712 (builds a spec, not a test)


@contract(description="door {door} is unlocked at the end")
def unlocked_at_end(door: str) -> ContractSpec:
    return Locked.final[door] == False  # noqa: E712 (builds a spec, not a test)


@contract(description="every door is locked at the end")
def all_locked_at_end() -> ContractSpec:
    return Locked.final.all(lambda item: item.value == True)  # noqa: E712 (builds a spec, not a test)


@contract(description="every message goes to an address taken unchanged from a contact")
def to_contacts() -> ContractSpec:
    return effect(send).all(lambda e: e.to == Contact.email)


@contract(description="nothing goes out to {who} (over events)")
def no_outgoing_to(who: str) -> ContractSpec:
    return Outgoing.where(lambda e: e.to == who).empty()


@contract(description="at most {n} outgoing events")
def outgoing_at_most(n: int) -> ContractSpec:
    return Outgoing.count() <= n


@contract(description="at most {limit} spent in total (over events)")
def spent_at_most(limit: int) -> ContractSpec:
    return Spent.sum(lambda e: e.amount) <= limit
