"""Contracts over send_email: recipients, counts, lengths and content."""

from tools.email.trusted.effects import read_latest_email, send_email

from clauz3 import spec
from clauz3.spec import ContractSpec, contract, effect, flows


@contract(description="every email goes to one of {addresses}")
def only(addresses: list[str]) -> ContractSpec:
    return effect(send_email).all(lambda e: e.addr in addresses)


@contract(description="no email is sent")
def none() -> ContractSpec:
    return effect(send_email).empty()


@contract(description="promises nothing about email")
def no_guarantees() -> ContractSpec:
    return spec.no_guarantees()


@contract(description="no address receives two emails")
def unique_recipients() -> ContractSpec:
    return effect(send_email).distinct(lambda e: e.addr)


@contract(description="at most {count} emails are sent")
def at_most(count: int) -> ContractSpec:
    return effect(send_email).count() <= count


@contract(description="{addr} receives at most {count} emails")
def recipient_at_most(addr: str, count: int) -> ContractSpec:
    return effect(send_email).where(lambda e: e.addr == addr).count() <= count


@contract(description="every email is at most {max_chars} characters long")
def content_length_at_most(max_chars: int) -> ContractSpec:
    return effect(send_email).all(lambda e: len(e.msg) <= max_chars)


@contract(description="{left_addr} and {right_addr} receive at least one identical email")
def same_content(left_addr: str, right_addr: str) -> ContractSpec:
    to_left = effect(send_email).where(lambda e: e.addr == left_addr)
    to_right = effect(send_email).where(lambda e: e.addr == right_addr)
    return to_left.shares_value(to_right, lambda e: e.msg)


@contract(description="every email to \"bob@example.com\" says exactly \"x\"")
def bob_gets_x() -> ContractSpec:
    return effect(send_email).where(lambda e: e.addr == "bob@example.com").all(lambda e: e.msg == "x")


@contract(description="nothing read from your inbox reaches an email's recipient")
def recipients_not_from_inbox() -> ContractSpec:
    return flows.never(from_=read_latest_email, into=effect(send_email).addr)


@contract(description="the text of every email comes from the program itself, never from anything read")
def text_from_program_only() -> ContractSpec:
    return flows.only(from_=[], into=effect(send_email).msg)
