"""What a program may promise about its emails: who receives them, how many, no repeats."""

from tools.email.trusted.effects import send_email

from clauz3.spec import ContractSpec, contract, effect


@contract(description="every email goes to one of {addresses}")
def only(addresses: list[str]) -> ContractSpec:
    return effect(send_email).all(lambda e: e.addr in addresses)


@contract(description="no email is sent")
def none() -> ContractSpec:
    return effect(send_email).empty()


@contract(description="at most {count} emails are sent")
def at_most(count: int) -> ContractSpec:
    return effect(send_email).count() <= count


@contract(description="no address receives two emails")
def unique_recipients() -> ContractSpec:
    return effect(send_email).distinct(lambda e: e.addr)
