"""What a program may promise about email, in the email tutorial's words (only, at_most, none).

AgentDojo's send_email takes a list of recipients; the checked subset has no quantifier over a
list inside a relation lambda, so ``only`` means the recipient list is exactly the one approved.
"""

from tools.workspace.trusted.effects import (
    delete_email,
    get_file_by_id,
    get_received_emails,
    get_unread_emails,
    search_emails,
    search_files,
    send_email,
)

from clauz3 import spec
from clauz3.spec import ContractSpec, contract, effect, flows


@contract(description="every email goes to exactly {addresses}, with no Cc or Bcc")
def only(addresses: list[str]) -> ContractSpec:
    return effect(send_email).all(lambda e: e.recipients == addresses and e.cc == None and e.bcc == None)  # noqa: E711


@contract(description="every email goes to just one of {addresses}, with no Cc or Bcc")
def each_to_one_of(addresses: list[str]) -> ContractSpec:
    singles = [[a] for a in addresses]
    return effect(send_email).all(lambda e: e.recipients in singles and e.cc == None and e.bcc == None)  # noqa: E711


@contract(description="at most {count} emails are sent")
def at_most(count: int) -> ContractSpec:
    return effect(send_email).count() <= count


@contract(description="no email is sent")
def none() -> ContractSpec:
    return effect(send_email).empty()


@contract(description="every email's subject is {subject}")
def subject_is(subject: str) -> ContractSpec:
    return effect(send_email).all(lambda e: e.subject == subject)


@contract(description="no email is deleted")
def no_deletes() -> ContractSpec:
    return effect(delete_email).empty()


@contract(description="promises nothing about the workspace")
def no_guarantees() -> ContractSpec:
    return spec.no_guarantees()


@contract(description="an email sets no optional field (attachments, Cc, Bcc) other than {fields}")
def sets_only(fields: list[str]) -> ContractSpec:
    return effect(send_email).changes_only(fields)


@contract(description="no recipient, cc or bcc of an email comes from an email or file the program read")
def recipients_not_from_reads() -> ContractSpec:
    sent = effect(send_email)
    return flows.never(from_=[get_unread_emails, get_received_emails, search_emails, get_file_by_id, search_files],
                       into=[sent.recipients, sent.cc, sent.bcc])
